/**
 * Hosted connect of the local business network over real HTTP against its loopback fake: Google's
 * sign-in with the Business Profile scope, PKCE and offline access; the identity chooser offering
 * each location the sign-in manages across its accounts (paged, a location reached through two
 * accounts offered once); the locations ticked become accounts holding the account and location
 * names beside the tokens; a reconnect renews its own location; disconnect revokes the grant.
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../../src/db/schema'
import { startLocalFake } from '../../fakes/local'
import { linkHref, serveTestApp, type ServedApp, visit } from '../../support/browser'
import { localOrigins } from '../../networks/local-support'

const APP = 'http://app.test'

async function setup() {
  const fake = await startLocalFake()
  const t = await serveTestApp({
    connectRedirectOrigins: [APP],
    networks: {
      origins: localOrigins(fake.url),
      clients: { LOCAL_NET: { clientId: fake.client.id, clientSecret: fake.client.secret } },
    },
  })
  return { fake, t }
}

async function signIn(t: ServedApp, path = '/v1/accounts/connect') {
  const body = path.endsWith('/connect') ? { platform: 'LOCAL_NET' } : {}
  const res = await t.call('POST', path, { body: { ...body, redirectUrl: `${APP}/cb` } })
  expect(res.status).toBe(200)
  const start = await visit((await res.json()).url)
  return visit(new URL(linkHref(start.body, 'Continue to'), t.baseUrl).href, { stopAt: APP })
}

function chooser(html: string) {
  const action = /<form method="post" action="([^"]*)">/.exec(html)?.[1] ?? ''
  const token = /name="choice" value="([^"]*)"/.exec(html)?.[1] ?? ''
  const boxes = [...html.matchAll(/name="identity" value="([^"]*)">\s*([^<]+?)\s*<small>([^<]*)<\/small>/g)].map(
    (m) => ({ key: m[1]!, name: m[2]!, externalId: m[3]! }),
  )
  return { action, token, boxes }
}

const choose = (t: ServedApp, action: string, token: string, keys: string[]) =>
  visit(new URL(action, t.baseUrl).href, {
    method: 'POST',
    form: [['choice', token], ...keys.map((k): [string, string] => ['identity', k])],
    stopAt: APP,
  })

const rowsOf = (t: ServedApp) => t.deps.db.select().from(accounts).where(eq(accounts.workspaceId, t.workspaceId))

describe('hosted connect, LOCAL_NET: choosing the business locations a Google sign-in manages', () => {
  it('offers every location once across the accounts and pages; the ones ticked become accounts', async () => {
    const { fake, t } = await setup()
    fake.state.accounts.push(
      ...Array.from({ length: 21 }, (_, i) => ({
        name: `accounts/${300 + i}`,
        accountName: `Empty ${i}`,
        type: 'USER_GROUP',
      })),
    )
    fake.state.locations.push({ id: '9004', accountIds: ['320'], title: 'Last Bakery', locality: null, verified: true })
    const page = await signIn(t)
    expect(page.response.status).toBe(200)
    const [authorize] = fake.oauth.authorizeRequests
    expect(authorize!.get('scope')).toBe('https://www.googleapis.com/auth/business.manage')
    expect(authorize!.get('code_challenge_method')).toBe('S256')
    expect([authorize!.get('access_type'), authorize!.get('prompt')]).toEqual(['offline', 'consent'])
    expect(fake.calls('GET', '/v1/accounts').map((r) => r.query.get('pageToken'))).toEqual([null, '20'])

    const { action, token, boxes } = chooser(page.body)
    expect(boxes.map((b) => [b.name, b.externalId])).toEqual([
      ['Corner Bakery (Springfield)', 'locations/9001'],
      ['Harbour Bakery (Shelbyville)', 'locations/9002'],
      ['Night Bakery', 'locations/9003'],
      ['Last Bakery', 'locations/9004'],
    ])
    expect(page.body).not.toContain(fake.state.accessToken)
    const picked = boxes.filter((b) => b.externalId !== 'locations/9003').map((b) => b.key)
    const back = new URL((await choose(t, action, token, picked)).url)
    expect(back.searchParams.getAll('accountId')).toHaveLength(3)
    const rows = await rowsOf(t)
    const held = await Promise.all(
      rows.map(async (r) => [r.externalId, await t.deps.cipher.decrypt(r.credentials, r.id)] as const),
    )
    expect(Object.fromEntries(held.map(([id, c]) => [id, [c.accountName, c.locationName]]))).toEqual({
      'locations/9001': ['accounts/101', 'accounts/101/locations/9001'],
      'locations/9002': ['accounts/101', 'accounts/101/locations/9002'],
      'locations/9004': ['accounts/320', 'accounts/320/locations/9004'],
    })
    for (const [, c] of held)
      expect(c).toMatchObject({
        accessToken: fake.state.accessToken,
        refreshToken: fake.state.refreshToken,
        expiresAt: expect.any(String),
      })
  })

  it('a reconnect renews its own location (through whichever account reaches it); disconnect revokes the refresh token', async () => {
    const { fake, t } = await setup()
    const first = chooser((await signIn(t)).body)
    const corner = first.boxes.find((b) => b.externalId === 'locations/9001')!
    const accountId = new URL((await choose(t, first.action, first.token, [corner.key])).url).searchParams.get(
      'accountId',
    )!
    const again = new URL((await signIn(t, `/v1/accounts/${accountId}/reconnect`)).url)
    expect(again.searchParams.getAll('accountId')).toEqual([accountId])
    const [row] = await rowsOf(t)
    const credentials = await t.deps.cipher.decrypt(row!.credentials, row!.id)
    expect(credentials.accessToken).toBe(fake.state.accessToken)

    // Reached now only through the location group: the reconnect keeps the account, under the group's name.
    fake.state.locations[0]!.accountIds = ['202']
    expect(
      new URL((await signIn(t, `/v1/accounts/${accountId}/reconnect`)).url).searchParams.getAll('accountId'),
    ).toEqual([accountId])
    const [moved] = await rowsOf(t)
    expect((await t.deps.cipher.decrypt(moved!.credentials, moved!.id)).locationName).toBe(
      'accounts/202/locations/9001',
    )

    fake.state.locations.splice(0, 1) // The sign-in no longer manages it at all.
    const refused = new URL((await signIn(t, `/v1/accounts/${accountId}/reconnect`)).url)
    expect(refused.searchParams.get('error')).toBe('identity_mismatch')

    const disconnected = await (await t.call('DELETE', `/v1/accounts/${accountId}`)).json()
    expect(disconnected.tokenRevoked).toBe(true)
    expect(fake.oauth.revoked).toEqual([(await t.deps.cipher.decrypt(moved!.credentials, moved!.id)).refreshToken])
  })

  it('refuses a sign-in that manages no location, and one whose listing fails, storing nothing', async () => {
    const { fake, t } = await setup()
    fake.state.locations = []
    const none = new URL((await signIn(t)).url)
    expect(none.searchParams.get('error')).toBeTruthy()
    fake.state.locations = [{ id: '9001', accountIds: ['101'], title: 'Corner Bakery', locality: null, verified: true }]
    fake.failNextError(
      403,
      'PERMISSION_DENIED',
      'Google My Business API has not been used in project 1 before or it is disabled.',
      /^GET \/v1\/accounts$/,
    )
    const failed = new URL((await signIn(t)).url)
    expect(failed.searchParams.get('error')).toBe('exchange_failed')
    expect(failed.searchParams.get('message')).toContain('has not been used in project')
    expect(await rowsOf(t)).toHaveLength(0)
  })
})
