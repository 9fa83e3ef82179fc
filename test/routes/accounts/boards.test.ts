import { describe, expect, it } from 'vitest'
import { DEFAULT_NETWORK_ORIGINS } from '../../../src/config'
import { createDrizzleSandboxStore } from '../../../src/db/queries/sandbox-posts'
import { createNetworkRegistry } from '../../../src/networks/create-registry'
import { createSandboxAdapter } from '../../../src/networks/sandbox/adapter'
import { sandboxBoards } from '../../../src/networks/sandbox/boards'
import { testDatabase } from '../../support/database'
import { account, connectedAccount } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

const { db } = await testDatabase()

/** A test app whose networks are the simulated network alone. */
function appWithNetworks(): Promise<TestApp> {
  return createTestApp({
    networkRegistry: (parts) =>
      createNetworkRegistry({
        sandbox: createSandboxAdapter({
          store: createDrizzleSandboxStore(parts.db),
          permalinkBase: 'http://localhost',
        }),
        origins: parts.settings.networkOrigins,
        fetch,
      }),
  })
}

describe('GET /v1/accounts/{id}/boards', () => {
  it('lists the boards of a SANDBOX pinboard account in the spec shape', async () => {
    const t = await appWithNetworks()
    const pinboard = await account(t, 'PINBOARD_NET')
    const res = await t.call('GET', `/v1/accounts/${pinboard.id}/boards`)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toEqual({ boards: sandboxBoards(pinboard.id) })
    expect(body.boards.map((b: { name: string; privacy: string }) => `${b.name}:${b.privacy}`)).toEqual([
      'Inspiration:PUBLIC',
      'Recipes:PUBLIC',
      'Travel:SECRET',
    ])
    expect(await (await t.call('GET', `/v1/accounts/${pinboard.id}/boards`)).json()).toEqual(body)
  })

  it('answers 404 for an account of another workspace, or none', async () => {
    const t = await appWithNetworks()
    const other = await appWithNetworks()
    const theirs = await account(other, 'PINBOARD_NET')
    for (const id of [theirs.id, 'acc_doesNotExist']) {
      const res = await t.call('GET', `/v1/accounts/${id}/boards`)
      expect(res.status).toBe(404)
      expect(await res.json()).toMatchObject({ error: { code: 'not_found' } })
    }
  })

  it('answers 422 invalid_option for an account that is not on the pinboard network', async () => {
    const t = await appWithNetworks()
    const microblog = await account(t, 'MICROBLOG_NET')
    const res = await t.call('GET', `/v1/accounts/${microblog.id}/boards`)
    expect(res.status).toBe(422)
    const body = await res.json()
    expect(body.error).toMatchObject({ code: 'invalid_option', details: [{ path: 'id', platform: 'MICROBLOG_NET' }] })
    expect(body.error.message).toContain('only PINBOARD_NET accounts have boards')
  })

  it("answers 422 invalid_option when no adapter reaches the account's connection yet", async () => {
    const t = await appWithNetworks()
    const direct = await connectedAccount(t, 'PINBOARD_NET', 'DIRECT_LOGIN')
    const res = await t.call('GET', `/v1/accounts/${direct.id}/boards`)
    expect(res.status).toBe(422)
    expect((await res.json()).error).toMatchObject({
      code: 'invalid_option',
      message: expect.stringContaining('no adapter'),
    })
  })

  it('is described in the OpenAPI document with its 422', async () => {
    const t = await appWithNetworks()
    const doc = await (await t.call('GET', '/v1/openapi.json', { token: null })).json()
    const operation = doc.paths['/v1/accounts/{id}/boards']?.get
    expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['200', '404', '422']))
  })
})

describe('network registry', () => {
  const sandbox = createSandboxAdapter({ store: createDrizzleSandboxStore(db), permalinkBase: '' })
  const registry = createNetworkRegistry({
    sandbox,
    origins: { ...DEFAULT_NETWORK_ORIGINS, MICROBLOG_NET_API_URL: 'http://127.0.0.1:9999' },
    fetch,
  })

  it('sends SANDBOX accounts to the simulated network, others to a real adapter when one exists', () => {
    expect(registry.adapterFor('PINBOARD_NET', 'SANDBOX')?.listBoards).toBeTypeOf('function')
    expect(registry.adapterFor('PHOTO_NET', 'SANDBOX')?.deletePost).toBeUndefined()
    expect(registry.adapterFor('MICROBLOG_NET', 'DIRECT_LOGIN')).toBeNull()
    const real = { publish: async () => ({ status: 'absent' as const }) }
    const withReal = createNetworkRegistry({
      sandbox,
      realAdapters: { MICROBLOG_NET: real },
      origins: DEFAULT_NETWORK_ORIGINS,
      fetch,
    })
    expect(withReal.adapterFor('MICROBLOG_NET', 'DIRECT_LOGIN')).toBe(real)
    expect(withReal.adapterFor('MICROBLOG_NET', 'SANDBOX')).not.toBe(real)
  })

  it('gives each account the origin its adapter talks to', () => {
    expect(registry.baseUrlFor('MICROBLOG_NET', 'DIRECT_LOGIN', {})).toBe('http://127.0.0.1:9999')
    expect(registry.baseUrlFor('PHOTO_NET', 'SOCIALGRAPH_LOGIN', {})).toBe('https://graph.facebook.com')
    expect(registry.baseUrlFor('PHOTO_NET', 'DIRECT_LOGIN', {})).toBe('https://graph.instagram.com')
    expect(registry.baseUrlFor('OPENPROTOCOL_NET', 'APP_PASSWORD', { serviceUrl: 'https://pds.example.test' })).toBe(
      'https://pds.example.test',
    )
    expect(registry.baseUrlFor('FEDERATED_NET', 'DIRECT_LOGIN', { instanceUrl: 'https://toot.example.test' })).toBe(
      'https://toot.example.test',
    )
    expect(
      registry.baseUrlFor('CHAT_NET', 'WEBHOOK', { webhookUrl: 'https://chat.example.test/api/webhooks/1/x' }),
    ).toBe('https://chat.example.test/api/webhooks/1/x')
    expect(registry.baseUrlFor('CHAT_NET', 'BOT_TOKEN', {})).toBe('https://discord.com')
    expect(registry.baseUrlFor('PINBOARD_NET', 'SANDBOX', {})).toBe('')
  })
})
