import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type SpsClient, serveForCli } from '../support/cli-client'
import { account } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'
import { until } from '../support/until'

vi.setConfig({ testTimeout: 120_000 })

let t: TestApp
let sps: SpsClient
let accountId: string
beforeAll(async () => {
  // Streams end after 1.5 s, so a test sees the CLI reconnect; clients wait 1 s before they do.
  t = await createTestApp({
    parts: (given) => ({
      ...given,
      settings: {
        ...given.settings,
        eventStream: { pollMs: 40, heartbeatMs: 60_000, lifetimeMs: 1500, retryMs: 1000 },
      },
    }),
  })
  sps = await serveForCli(t)
  accountId = (await account(t, 'MICROBLOG_NET')).id
  const login = await sps.run(['login', '--url', sps.url, '--token', t.token])
  expect(login.code, login.stderr).toBe(0)
})

/** A draft made and deleted through the API: one `post.deleted` event. Answers the post id. */
async function deleteDraft(): Promise<string> {
  const res = await t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds: [accountId], mediaIds: [], action: 'draft', caption: 'draft' },
  })
  const id = (await res.json()).id as string
  expect((await t.call('DELETE', `/v1/posts/${id}`)).status).toBe(200)
  return id
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))

describe('sps events tail', () => {
  it('prints each event once, and after the stream ends resumes with Last-Event-ID, missing nothing', async () => {
    const tail = sps.start(['events', 'tail', '--json', '--types', 'post.deleted'])
    await until(
      async () => tail.stderr(),
      (s) => s.includes('connected to'),
      30_000,
    )
    const first = await deleteDraft()
    await until(
      async () => tail.stdout(),
      (s) => s.includes(first),
    )
    // The server ends the stream; the event made while the CLI waits to reconnect still arrives.
    await until(
      async () => tail.stderr(),
      (s) => s.includes('reconnecting in'),
    )
    const second = await deleteDraft()
    await until(
      async () => tail.stdout(),
      (s) => s.includes(second),
    )
    await tail.stop()
    const events = jsonLines(tail.stdout())
    expect(events.map((e) => [e.type, e.data.postId ?? e.data.id])).toEqual([
      ['post.deleted', first],
      ['post.deleted', second],
    ])
    expect(events[0]).toMatchObject({ id: expect.stringMatching(/^evt_/), workspaceId: t.workspaceId })
    expect(tail.stderr()).toContain(`resuming after ${events[0].id}`)
  })
})

describe('sps listen', () => {
  const received: Array<{ body: string; headers: IncomingHttpHeaders }> = []
  const receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      received.push({ body, headers: req.headers })
      // The first delivery fails at the receiver: listen says so and goes on.
      res.writeHead(received.length === 1 ? 500 : 204).end()
    })
  })
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())))

  it('prints its secret, forwards each event signed with it, and goes on when the receiver fails', async () => {
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()))
    const to = `http://localhost:${(receiver.address() as AddressInfo).port}/hooks`
    const listen = sps.start(['listen', '--forward-to', to])
    await until(
      async () => listen.stderr(),
      (s) => s.includes('connected to'),
      30_000,
    )
    const secret = /Your webhook signing secret is (whsec_\S+)/.exec(listen.stderr())?.[1]
    expect(secret).toBeDefined()
    const posts = [await deleteDraft(), await deleteDraft()]
    await until(
      async () => listen.stdout().split('\n').filter(Boolean).length,
      (n) => n >= 2,
    )
    await listen.stop()

    expect(received).toHaveLength(2)
    const hook = new Webhook(secret!)
    const payloads = received.map(
      (r) =>
        hook.verify(r.body, r.headers as Record<string, string>) as {
          id: string
          data: { postId?: string; id?: string }
        },
    )
    expect(payloads.map((p) => p.data.postId ?? p.data.id)).toEqual(posts)
    expect(received.map((r) => r.headers['webhook-id'])).toEqual(payloads.map((p) => p.id))
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
        received[0]!.body,
        received[0]!.headers as Record<string, string>,
      ),
    ).toThrow()
    const lines = listen.stdout().trim().split('\n')
    expect(lines[0]).toMatch(new RegExp(`post\\.deleted\\s+${payloads[0]!.id}\\s+-> 500$`))
    expect(lines[1]).toMatch(new RegExp(`post\\.deleted\\s+${payloads[1]!.id}\\s+-> 204$`))

    // The next run signs with the same secret, kept in the config file.
    const again = sps.start(['listen', '--forward-to', to])
    await until(
      async () => again.stderr(),
      (s) => s.includes('signing secret'),
      30_000,
    )
    await again.stop()
    expect(again.stderr()).toContain(`Your webhook signing secret is ${secret} `)
  })
})
