/**
 * `token_expires` warnings: a post due after its account's token expires, on a network where this
 * service cannot renew it (the professional network's 60-day token, no refresh token), is accepted
 * with a warning naming the account, the expiry and the reconnect call, on create, edit, schedule
 * and the dry run; an account with a refresh token, or a post due before the expiry, gets none.
 */
import { describe, expect, it } from 'vitest'
import { fixedClock, realAccount } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

const NOW = '2026-11-25T10:00:00.000Z'
const EXPIRES = '2026-12-10T10:00:00.000Z'

async function setup() {
  const t = await createTestApp({ clock: fixedClock(NOW) })
  const professional = await realAccount(t, 'PROFESSIONAL_NET', 'DIRECT_LOGIN', {
    accessToken: 'li-token',
    expiresAt: EXPIRES,
    authorUrn: 'urn:li:person:abc123',
  })
  const microblog = await realAccount(t, 'MICROBLOG_NET', 'DIRECT_LOGIN', {
    accessToken: 'mb-token',
    refreshToken: 'mb-refresh',
    expiresAt: EXPIRES,
    userId: '42',
  })
  return { t, professional, microblog }
}

const post = (accountIds: string[], scheduledAt: string) => ({
  type: 'IMAGE',
  accountIds,
  mediaIds: [],
  action: 'schedule',
  scheduledAt,
  caption: 'Winter menu',
})

const expiring = (body: { warnings: Array<{ code: string; accountId?: string; message: string }> }) =>
  body.warnings.filter((w) => w.code === 'token_expires')

async function write(t: TestApp, method: 'POST' | 'PATCH', path: string, body: unknown) {
  const res = await t.call(method, path, { body })
  expect(res.status, path).toBe(200)
  return res.json()
}

describe('token_expires warnings', () => {
  it('warns on create (and its dry run) for the account that cannot be renewed, naming it, its expiry and the fix', async () => {
    const { t, professional, microblog } = await setup()
    const body = post([professional.id, microblog.id], '2026-12-20T09:00:00.000Z')
    const created = await write(t, 'POST', '/v1/posts', body)
    const [warning, ...more] = expiring(created)
    expect(more).toEqual([])
    expect(warning!.accountId).toBe(professional.id)
    expect(warning!.message).toContain(professional.username)
    expect(warning!.message).toContain(EXPIRES)
    expect(warning!.message).toContain(`/v1/accounts/${professional.id}/reconnect`)
    expect(created.status).toBe('SCHEDULED')

    const dryRun = await write(t, 'POST', '/v1/posts/validate', body)
    const target = dryRun.targets.find((x: { accountId: string }) => x.accountId === professional.id)
    expect(expiring(target)).toHaveLength(1)
  })

  it('says nothing when the post is due before the token expires', async () => {
    const { t, professional } = await setup()
    expect(expiring(await write(t, 'POST', '/v1/posts', post([professional.id], '2026-12-01T09:00:00.000Z')))).toEqual(
      [],
    )
  })

  it('warns when an edit or a reschedule moves the post past the expiry', async () => {
    const { t, professional } = await setup()
    const created = await write(t, 'POST', '/v1/posts', post([professional.id], '2026-12-01T09:00:00.000Z'))
    const edited = await write(t, 'PATCH', `/v1/posts/${created.id}`, {
      action: 'schedule',
      scheduledAt: '2026-12-11T09:00:00.000Z',
    })
    expect(expiring(edited).map((w) => w.accountId)).toEqual([professional.id])
    const back = await write(t, 'POST', `/v1/posts/${created.id}/schedule`, { scheduledAt: '2026-12-02T09:00:00.000Z' })
    expect(expiring(back)).toEqual([])
    const later = await write(t, 'POST', `/v1/posts/${created.id}/schedule`, {
      scheduledAt: '2027-01-05T09:00:00.000Z',
    })
    expect(expiring(later).map((w) => w.accountId)).toEqual([professional.id])
  })
})
