/**
 * The outbound guard (src/networks/outbound.ts): what counts as a public address, and that an
 * account's own server (federated instanceUrl, chat webhookUrl) on loopback, a private network or
 * the metadata address is refused at connection (nothing stored, nothing called) and at publish
 * time (rejected, not retried), including after DNS and after a redirect. Real loopback HTTP: the
 * fakes count what reaches them.
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../src/db/schema'
import {
  checkOutboundUrl,
  classifyHost,
  classifyIp,
  guardedFetch,
  OutboundRefused,
  type ResolveHost,
} from '../../src/networks/outbound'
import { connectAccount } from '../../src/services/accounts/connection'
import { startChatFake } from '../fakes/chat'
import { startFakeServer } from '../fakes/fake-server'
import { startFederatedFake } from '../fakes/federated'
import { runDue } from '../support/engine'
import { fixedClock, realAccount } from '../support/fixtures'
import { createTestApp, type TestApp, type TestAppOptions } from '../support/test-app'

/** A public-looking name that resolves to loopback, and one that resolves to a public address. */
const resolver: ResolveHost = async (host) => {
  if (host === 'evil.example') return ['93.184.216.34', '127.0.0.1']
  if (host === 'public.example') return ['93.184.216.34']
  throw new Error(`ENOTFOUND ${host}`)
}

describe('classifyIp / classifyHost', () => {
  const table: Array<[string, string | null]> = [
    // IPv4
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.1', 'public'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    // IPv6
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:80b::200e', 'public'],
    // IPv4-mapped and embedded IPv4
    ['::ffff:127.0.0.1', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    // not IP literals
    ['example.com', null],
    ['1.2.3', null],
    ['256.1.1.1', null],
    ['1::2::3', null],
  ]
  it.each(table)('%s is %s', (ip, cls) => {
    expect(classifyIp(ip)).toBe(cls)
  })

  it.each([
    ['localhost', 'local-name'],
    ['LOCALHOST.', 'local-name'],
    ['api.localhost', 'local-name'],
    ['127.0.0.1', 'loopback'],
    ['[::1]', 'loopback'],
    ['example.com', null],
    ['localhost.example.com', null],
  ])('host %s is %s', (host, cls) => {
    expect(classifyHost(host)).toBe(cls)
  })

  it('checks a URL: scheme, literal (as the URL parser normalizes it), then DNS', async () => {
    const off = { allowPrivate: false, resolveHost: resolver }
    expect(await checkOutboundUrl('https://public.example/x', off)).toBeNull()
    expect(await checkOutboundUrl('http://public.example/x', off)).toBe('must be a public https address')
    expect(await checkOutboundUrl('ftp://public.example/x', off)).toBe('must be a public https address')
    expect(await checkOutboundUrl('https://2130706433/', off)).toMatch(/127\.0\.0\.1 is a loopback address/)
    expect(await checkOutboundUrl('https://0x7f.1/', off)).toMatch(/loopback/)
    expect(await checkOutboundUrl('https://[::ffff:127.0.0.1]/', off)).toMatch(/loopback/)
    expect(await checkOutboundUrl('https://localhost/', off)).toMatch(/localhost is a local name/)
    expect(await checkOutboundUrl('https://evil.example/', off)).toBe(
      'must be a public https address (evil.example resolves to 127.0.0.1, a loopback address)',
    )
    // Without a resolver (Workers) only literals and names are checked.
    expect(await checkOutboundUrl('https://evil.example/', { allowPrivate: false })).toBeNull()
    // An unknown name is not refused: the request fails on its own as unreachable.
    expect(await checkOutboundUrl('https://nowhere.example/', off)).toBeNull()
    const on = { allowPrivate: true, resolveHost: resolver }
    expect(await checkOutboundUrl('http://127.0.0.1:9/', on)).toBeNull()
    expect(await checkOutboundUrl('file:///etc/passwd', on)).toBe('must be an http or https address')
  })
})

async function app(options: TestAppOptions = {}) {
  return createTestApp({ clock: fixedClock('2026-11-21T10:00:00Z'), resolveHost: resolver, ...options })
}

const storedAccounts = async (t: TestApp) =>
  t.deps.db.select().from(accounts).where(eq(accounts.workspaceId, t.workspaceId))

describe('connecting an account whose server is not public', () => {
  it('refuses a federated instanceUrl on loopback, private, metadata, [::1] or plain http, naming the field; stores and calls nothing', async () => {
    const fake = await startFederatedFake({ now: () => new Date('2026-11-21T10:00:00Z') })
    const t = await app({ allowPrivateUrls: false })
    const port = new URL(fake.url).port
    const refused = [
      // Plain http is refused by the credential schema itself, before any address is looked at.
      [fake.url, 'instanceUrl: must be an https URL'],
      [`https://127.0.0.1:${port}`, 'instanceUrl must be a public https address (127.0.0.1 is a loopback address)'],
      ['https://10.1.2.3', 'instanceUrl must be a public https address (10.1.2.3 is a private address)'],
      [
        'https://169.254.169.254',
        'instanceUrl must be a public https address (169.254.169.254 is a link-local address)',
      ],
      [`https://[::1]:${port}`, 'instanceUrl must be a public https address ([::1] is a loopback address)'],
      [`https://localhost:${port}`, 'instanceUrl must be a public https address (localhost is a local name)'],
      ['http://public.example', 'instanceUrl: must be an https URL'],
      // A public-looking name whose DNS answer holds a loopback address.
      [`https://evil.example:${port}`, 'evil.example resolves to 127.0.0.1, a loopback address'],
    ] as const
    for (const [instanceUrl, words] of refused) {
      const attempt = connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'FEDERATED_NET',
        connection: 'DIRECT_LOGIN',
        credentials: { instanceUrl, accessToken: fake.token },
      })
      await expect(attempt).rejects.toMatchObject({
        code: 'invalid_request',
        message: expect.stringContaining(words),
        details: [expect.objectContaining({ path: 'credentials.instanceUrl' })],
      })
    }
    expect(await storedAccounts(t)).toHaveLength(0)
    expect(fake.server.requests).toHaveLength(0)
  })

  it('refuses a chat webhookUrl on loopback or the metadata address; stores and calls nothing', async () => {
    const fake = await startChatFake()
    const t = await app({ allowPrivateUrls: false })
    const path = new URL(fake.webhookUrl).pathname
    for (const webhookUrl of [
      fake.webhookUrl,
      fake.webhookUrl.replace('http://', 'https://'),
      `https://169.254.169.254${path}`,
      `https://[::1]:${new URL(fake.url).port}${path}`,
    ]) {
      await expect(
        connectAccount(t.deps, {
          workspaceId: t.workspaceId,
          platform: 'CHAT_NET',
          connection: 'WEBHOOK',
          credentials: { webhookUrl },
        }),
      ).rejects.toThrow(/webhookUrl(: must be an https URL| must be a public https address)/)
    }
    expect(await storedAccounts(t)).toHaveLength(0)
    expect(fake.requests).toHaveLength(0)
  })

  it('with ALLOW_PRIVATE_URLS (the test default) the loopback fakes connect as before', async () => {
    const federated = await startFederatedFake({ now: () => new Date('2026-11-21T10:00:00Z') })
    const chat = await startChatFake()
    const t = await app()
    await connectAccount(t.deps, {
      workspaceId: t.workspaceId,
      platform: 'FEDERATED_NET',
      connection: 'DIRECT_LOGIN',
      credentials: { instanceUrl: federated.url, accessToken: federated.token },
    })
    await connectAccount(t.deps, {
      workspaceId: t.workspaceId,
      platform: 'CHAT_NET',
      connection: 'WEBHOOK',
      credentials: { webhookUrl: chat.webhookUrl },
    })
    expect(await storedAccounts(t)).toHaveLength(2)
    expect(federated.server.requests.length).toBeGreaterThan(0)
    expect(chat.requests.length).toBeGreaterThan(0)
  })

  it('refuses a redirect from an allowed address to a private one (the private one never called)', async () => {
    const inside = await startFakeServer([['GET', /.*/, () => ({ json: { id: 'secret' } })]])
    const outside = await startFakeServer([
      ['GET', /.*/, () => ({ status: 302, headers: { location: `${inside.url}/latest/meta-data/` } })],
    ])
    // public.example resolves (by the test's resolver) to a public address; this fetch carries it to
    // the loopback fake standing in for that server. The guard sees only public.example.
    const toOutside: typeof fetch = (input, init) => {
      const url = new URL(String(input))
      if (url.hostname !== 'public.example') return fetch(input, init)
      return fetch(`${outside.url}${url.pathname}${url.search}`, init)
    }
    const t = await app({ allowPrivateUrls: false, fetch: toOutside })
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'FEDERATED_NET',
        connection: 'DIRECT_LOGIN',
        credentials: { instanceUrl: 'https://public.example', accessToken: 'tok' },
      }),
    ).rejects.toThrow(/did not confirm the credentials: .*127\.0\.0\.1 was refused: it must be a public https address/)
    expect(outside.requests).toHaveLength(1)
    expect(inside.requests).toHaveLength(0)
    expect(await storedAccounts(t)).toHaveLength(0)

    // The guard itself: redirects are followed by hand between allowed addresses, at most 5.
    let hops = 0
    const loop = await startFakeServer([
      ['GET', /.*/, () => ({ status: 302, headers: { location: `/next/${++hops}` } })],
      ['POST', /.*/, () => ({ status: 302, headers: { location: '/elsewhere' } })],
    ])
    const guarded = guardedFetch(fetch, { allowPrivate: false }, { trusted: (u) => u.origin === loop.url })
    await expect(guarded(`${loop.url}/start`)).rejects.toThrow(OutboundRefused)
    expect(loop.requests).toHaveLength(6)
    // A Request (its body cannot be replayed) is never followed: refused, or handed back as it came
    // when the caller asked for the redirect itself (a webhook attempt records its status).
    for (const allowPrivate of [false, true]) {
      const redirect = guardedFetch(fetch, { allowPrivate }, { trusted: (u) => u.origin === loop.url })
      await expect(redirect(new Request(`${loop.url}/post`, { method: 'POST', body: 'x' }))).rejects.toThrow(
        /answered with a redirect, which is refused/,
      )
      const manual = await redirect(new Request(`${loop.url}/post`, { method: 'POST', body: 'x', redirect: 'manual' }))
      expect(manual.status).toBe(302)
    }
    expect(loop.requests).toHaveLength(10)
  })
})

describe('publishing to an account whose server is not public', () => {
  it('fails the target as rejected with words, without retries, and calls nothing', async () => {
    const fake = await startFederatedFake({ now: () => new Date('2026-11-21T10:00:00Z') })
    const t = await app({ allowPrivateUrls: false, publishing: { maxAttempts: 3, backoffBaseSec: 1 } })
    // Stored before the guard existed (or while ALLOW_PRIVATE_URLS was on).
    const acct = await realAccount(t, 'FEDERATED_NET', 'DIRECT_LOGIN', {
      instanceUrl: fake.url.replace('http://', 'https://'),
      accessToken: fake.token,
    })
    const created = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', mediaIds: [], caption: 'hello', accountIds: [acct.id], action: 'now' },
    })
    const { id } = await created.json()
    await runDue(t, t.publishQueue)
    const target = (await (await t.call('GET', `/v1/posts/${id}`)).json()).targets[0]
    expect(target).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'rejected',
        message: expect.stringContaining('127.0.0.1 was refused: it must be a public https address'),
      },
    })
    expect(t.publishQueue.takeDue(new Date('2030-01-01T00:00:00Z'))).toHaveLength(0)
    expect(fake.server.requests).toHaveLength(0)
  })
})
