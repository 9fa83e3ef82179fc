/**
 * The relay network on the hosted connect page, over real HTTP against loopback relays: a form per
 * connection (a remote signer's bunker URL, or a private key), secrets typed as passwords and never
 * echoed back, the signer or the relays asked before anything is stored.
 */
import { count, eq } from 'drizzle-orm'
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure'
import { bytesToHex } from 'nostr-tools/utils'
import { afterAll, describe, expect, it } from 'vitest'
import { accounts } from '../../../src/db/schema'
import { startBunkerFake, startRelayFake } from '../../fakes/relay'
import { readForm, serveTestApp, type ServedApp, visit } from '../../support/browser'

const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  await Promise.all(closers.map((c) => c()))
})

const accountCount = async (t: ServedApp) =>
  (await t.deps.db.select({ n: count() }).from(accounts).where(eq(accounts.workspaceId, t.workspaceId)))[0]!.n

async function openForm(t: ServedApp, body: Record<string, unknown>) {
  const res = await t.call('POST', '/v1/accounts/connect', { body })
  expect(res.status).toBe(200)
  const page = await visit((await res.json()).url)
  expect(page.response.status).toBe(200)
  return { page, form: readForm(page.body) }
}

const submit = (t: ServedApp, action: string, fields: Record<string, string>) =>
  visit(new URL(action, t.baseUrl).href, { method: 'POST', form: fields })

describe('hosted connect, relay network', () => {
  it('remote signer: pairs through the bunker URL, refuses a wrong secret without echoing the URL', async () => {
    const bunker = await startBunkerFake()
    closers.push(() => bunker.relay.close())
    const t = await serveTestApp()
    const { page, form } = await openForm(t, { platform: 'RELAY_NET', connection: 'REMOTE_SIGNER' })
    expect(Object.keys(form.fields)).toEqual(['bunkerUrl', 'relays'])
    expect(page.body).toMatch(/name="bunkerUrl" type="password"/)
    const wrongUrl = bunker.url.replace(bunker.secret, 'not-the-secret')
    const wrong = await submit(t, form.action, { bunkerUrl: wrongUrl, relays: bunker.relay.url })
    expect(wrong.response.status).toBe(422)
    expect(wrong.body).toContain('wrong secret')
    expect(wrong.body).not.toContain('not-the-secret')
    expect(await accountCount(t)).toBe(0)
    const done = await submit(t, form.action, { bunkerUrl: bunker.url, relays: bunker.relay.url })
    expect(done.response.status).toBe(200)
    expect(done.body).toContain('is connected')
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.workspaceId, t.workspaceId))
    expect(row).toMatchObject({ platform: 'RELAY_NET', connection: 'REMOTE_SIGNER', externalId: bunker.userPubkey })
  })

  it('private key: connects with an nsec or hex key and its relays, refuses a malformed key, never echoes it', async () => {
    const relay = await startRelayFake()
    closers.push(() => relay.close())
    const key = generateSecretKey()
    relay.events.push(finalizeEvent({ kind: 10002, created_at: 1, content: '', tags: [['r', relay.url]] }, key))
    const t = await serveTestApp()
    const { page, form } = await openForm(t, { platform: 'RELAY_NET', connection: 'PRIVATE_KEY' })
    expect(Object.keys(form.fields)).toEqual(['privateKey', 'relays'])
    expect(page.body).toMatch(/name="privateKey" type="password"/)
    const bad = await submit(t, form.action, { privateKey: 'nsec1notakey', relays: relay.url })
    expect(bad.response.status).toBe(422)
    expect(bad.body).toContain('must be an nsec1… key or 64 hex characters')
    expect(bad.body).not.toContain('nsec1notakey')
    const hex = bytesToHex(key)
    const done = await submit(t, form.action, { privateKey: hex, relays: relay.url })
    expect(done.response.status).toBe(200)
    expect(done.body).not.toContain(hex)
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.workspaceId, t.workspaceId))
    expect(row).toMatchObject({ platform: 'RELAY_NET', connection: 'PRIVATE_KEY', externalId: getPublicKey(key) })
    expect(row!.credentials).not.toContain(hex)
  })

  it('reconnects a disconnected key account under the same id through its form, refusing another key', async () => {
    const relay = await startRelayFake()
    closers.push(() => relay.close())
    const key = generateSecretKey()
    const t = await serveTestApp()
    const { form } = await openForm(t, { platform: 'RELAY_NET', connection: 'PRIVATE_KEY' })
    const first = await submit(t, form.action, { privateKey: bytesToHex(key), relays: relay.url })
    expect(first.response.status).toBe(200)
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.workspaceId, t.workspaceId))
    await t.call('DELETE', `/v1/accounts/${row!.id}`)
    const reconnect = async (privateKey: string) => {
      const link = await (await t.call('POST', `/v1/accounts/${row!.id}/reconnect`, { body: {} })).json()
      const page = await visit(link.url)
      return submit(t, readForm(page.body).action, { privateKey, relays: relay.url })
    }
    const other = await reconnect(bytesToHex(generateSecretKey()))
    expect(other.body).not.toContain('is connected')
    expect((await (await t.call('GET', `/v1/accounts/${row!.id}`)).json()).status).toBe('DISCONNECTED')
    const same = await reconnect(bytesToHex(key))
    expect(same.response.status).toBe(200)
    expect((await (await t.call('GET', `/v1/accounts/${row!.id}`)).json()).status).toBe('ACTIVE')
    expect(await accountCount(t)).toBe(1)
  })
})
