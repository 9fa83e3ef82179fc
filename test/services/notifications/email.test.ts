import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { selectWorkspaceEmails } from '../../../src/db/queries/notifications'
import { EMAIL_MAX_ATTEMPTS } from '../../../src/domain/notifications'
import { createSmtpMailer } from '../../../src/infra/mailer/nodemailer'
import { randomBase62 } from '../../../src/lib/ids'
import { addMember } from '../../../src/services/people/memberships'
import { sendDueEmails } from '../../../src/services/notifications/email-sender'
import { notify } from '../../../src/services/notifications/notify'
import { createUser } from '../../../src/services/people/users'
import { createTestApp } from '../../support/test-app'

interface Received {
  to: string[]
  raw: string
}

/** A real SMTP server on loopback; `refuse` makes it answer 451 to every recipient. */
function startSmtp() {
  const received: Received[] = []
  const state = { refuse: false }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (state.refuse) {
        const error = Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 })
        return callback(error)
      }
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  const ready = new Promise<number>((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port))
  })
  return { server, received, state, ready }
}

const smtp = startSmtp()
let port = 0
beforeAll(async () => {
  port = await smtp.ready
})
afterAll(() => new Promise<void>((resolve) => smtp.server.close(() => resolve())))

/** Quoted-printable soft line breaks and escapes undone, so the body reads as sent. */
const decoded = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))

async function setUp() {
  let nowMs = Date.now()
  const clock = { now: () => new Date(nowMs) }
  const mailer = createSmtpMailer({
    url: `smtp://127.0.0.1:${port}`,
    from: 'Publishing <notify@example.test>',
    timeoutMs: 5000,
  })
  const t = await createTestApp({ clock, publicUrl: 'https://publish.example.test', parts: (p) => ({ ...p, mailer }) })
  const user = await createUser(t.deps, {
    email: `mail-${randomBase62(8)}@example.test`,
    name: 'Mia',
    password: 'a long enough password 7',
  })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, user.id, 'member'))
  const link = `/app/w/${t.workspaceId}/posts/post_mail`
  await t.deps.db.transaction((tx) =>
    notify(tx, {
      workspaceId: t.workspaceId,
      kind: 'target_failed',
      recipients: { userIds: [user.id] },
      title: 'Your post failed on @brand',
      body: 'The network answered that the image is too large.',
      link,
      subject: { type: 'post', id: 'post_mail' },
      now: clock.now(),
    }),
  )
  return { t, user, link, mailer, advance: (ms: number) => (nowMs += ms) }
}

describe('notification emails through a real SMTP server', () => {
  it('sends a due email once: recipient, subject, the dashboard link and the preferences hint', async () => {
    const { t, user, link, mailer } = await setUp()
    const before = smtp.received.length
    expect(await sendDueEmails(t.deps, { workspaceId: t.workspaceId })).toEqual({ sent: 1, retrying: 0, failed: 0 })
    const mail = smtp.received.slice(before).find((m) => m.to.includes(user.email))!
    expect(mail).toBeDefined()
    const body = decoded(mail.raw)
    expect(body).toMatch(/^Subject: Your post failed on @brand$/m)
    expect(body).toContain(`https://publish.example.test${link}`)
    expect(body).toContain(`https://publish.example.test/app/w/${t.workspaceId}/settings/notifications`)
    expect(body).toContain(`<a href="https://publish.example.test${link}">`)
    const [row] = await selectWorkspaceEmails(t.deps.db, t.workspaceId)
    expect(row).toMatchObject({ status: 'SENT', attempts: 1, lastError: null })
    // Sent rows are not sent again.
    expect(await sendDueEmails(t.deps, { workspaceId: t.workspaceId })).toEqual({ sent: 0, retrying: 0, failed: 0 })
    mailer.close()
  })

  it('tries again later when the server refuses, with backoff, and gives up as FAILED after the last attempt', async () => {
    const { t, user, advance, mailer } = await setUp()
    smtp.state.refuse = true
    try {
      expect(await sendDueEmails(t.deps, { workspaceId: t.workspaceId })).toEqual({ sent: 0, retrying: 1, failed: 0 })
      let [row] = await selectWorkspaceEmails(t.deps.db, t.workspaceId)
      expect(row).toMatchObject({ status: 'PENDING', attempts: 1 })
      expect(row!.lastError).toMatch(/refused the message \(451\).*try again later/)
      expect(row!.lastError).not.toContain('127.0.0.1')
      // Not due again before its backoff ends.
      expect(await sendDueEmails(t.deps, { workspaceId: t.workspaceId })).toEqual({ sent: 0, retrying: 0, failed: 0 })
      advance(61_000)
      smtp.state.refuse = false
      const before = smtp.received.length
      expect(await sendDueEmails(t.deps, { workspaceId: t.workspaceId })).toEqual({ sent: 1, retrying: 0, failed: 0 })
      expect(smtp.received.slice(before).some((m) => m.to.includes(user.email))).toBe(true)
      ;[row] = await selectWorkspaceEmails(t.deps.db, t.workspaceId)
      expect(row).toMatchObject({ status: 'SENT', attempts: 2, lastError: null })

      const second = await setUp()
      smtp.state.refuse = true
      for (let i = 1; i <= EMAIL_MAX_ATTEMPTS; i++) {
        await sendDueEmails(second.t.deps, { workspaceId: second.t.workspaceId })
        second.advance(24 * 3600_000)
      }
      const [gaveUp] = await selectWorkspaceEmails(second.t.deps.db, second.t.workspaceId)
      expect(gaveUp).toMatchObject({ status: 'FAILED', attempts: EMAIL_MAX_ATTEMPTS })
      second.mailer.close()
    } finally {
      smtp.state.refuse = false
      mailer.close()
    }
  })
})
