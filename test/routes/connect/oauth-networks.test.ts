/**
 * Hosted connect of each OAuth network besides the microblog one (its own file), over real HTTP
 * against the network's loopback fake: the documented scopes and PKCE use, the identity the
 * adapter reads, refused consent, a failed exchange, and revocation where the network has it.
 */
import { count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { NetworkClients, NetworkOrigins } from '../../../src/config'
import { accounts } from '../../../src/db/schema'
import type { PlatformId } from '../../../src/domain/vocabulary'
import { startPinboardFake } from '../../fakes/pinboard'
import { startProfessionalFake } from '../../fakes/professional'
import { startShortVideoFake } from '../../fakes/short-video'
import { startVideoShareFake } from '../../fakes/video-share'
import { linkHref, serveTestApp, type ServedApp, visit } from '../../support/browser'

const APP = 'http://app.test'

interface Case {
  platform: PlatformId
  start(): Promise<{ url: string; oauth: ReturnType<typeof import('../../fakes/oauth-provider').oauthFake> }>
  origins: (url: string) => Partial<NetworkOrigins>
  clients: NetworkClients
  scope: string
  pkce: boolean
  authorizeParams?: Record<string, string>
  username: string
  externalId: string
  credentialFields: string[]
  /** Whether disconnect revokes, and which token the network's revocation takes. */
  revokes: false | 'refreshToken' | 'accessToken'
}

const CASES: Case[] = [
  {
    platform: 'VIDEOSHARE_NET',
    start: startVideoShareFake,
    origins: (url) => ({
      VIDEOSHARE_NET_API_URL: url,
      VIDEOSHARE_NET_OAUTH_URL: url,
      VIDEOSHARE_NET_AUTHORIZE_URL: url,
    }),
    clients: { VIDEOSHARE_NET: { clientId: 'yt_client', clientSecret: 'yt_secret' } },
    scope: 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly',
    pkce: true,
    authorizeParams: { access_type: 'offline', prompt: 'consent' },
    username: 'My Channel',
    externalId: 'UC_channel_1',
    credentialFields: ['accessToken', 'refreshToken', 'expiresAt', 'channelId'],
    revokes: 'refreshToken',
  },
  {
    platform: 'PINBOARD_NET',
    start: () => startPinboardFake(),
    origins: (url) => ({ PINBOARD_NET_API_URL: url, PINBOARD_NET_AUTHORIZE_URL: url }),
    clients: { PINBOARD_NET: { clientId: 'pin-client', clientSecret: 'pin-secret' } },
    scope: 'boards:read,pins:read,pins:write,user_accounts:read',
    pkce: false,
    username: 'pinner',
    externalId: '',
    credentialFields: ['accessToken', 'refreshToken', 'expiresAt'],
    revokes: false,
  },
  {
    platform: 'SHORTVIDEO_NET',
    start: () => startShortVideoFake(),
    origins: (url) => ({ SHORTVIDEO_NET_API_URL: url, SHORTVIDEO_NET_AUTHORIZE_URL: url }),
    clients: { SHORTVIDEO_NET: { clientId: 'tt_client', clientSecret: 'tt_secret' } },
    scope: 'user.info.basic,video.publish',
    pkce: false,
    authorizeParams: { client_key: 'tt_client' },
    username: '',
    externalId: 'open_123',
    credentialFields: ['accessToken', 'refreshToken', 'expiresAt', 'openId'],
    revokes: 'accessToken',
  },
  {
    platform: 'PROFESSIONAL_NET',
    start: () => startProfessionalFake(),
    origins: (url) => ({ PROFESSIONAL_NET_API_URL: url, PROFESSIONAL_NET_OAUTH_URL: url }),
    clients: { PROFESSIONAL_NET: { clientId: 'li-client', clientSecret: 'li-secret' } },
    scope: 'openid profile w_member_social w_organization_social rw_organization_admin',
    pkce: false,
    username: '',
    externalId: '',
    credentialFields: ['accessToken', 'expiresAt', 'authorUrn'],
    revokes: 'accessToken',
  },
]

async function setup(c: Case) {
  const fake = await c.start()
  const t = await serveTestApp({
    connectRedirectOrigins: [APP],
    networks: { origins: c.origins(fake.url), clients: c.clients },
  })
  return { fake, t }
}

async function signIn(t: ServedApp, platform: PlatformId) {
  const res = await t.call('POST', '/v1/accounts/connect', { body: { platform, redirectUrl: `${APP}/cb` } })
  expect(res.status).toBe(200)
  const start = await visit((await res.json()).url)
  return new URL((await visit(new URL(linkHref(start.body, 'Continue to'), t.baseUrl).href, { stopAt: APP })).url)
}

const accountCount = async (t: ServedApp) =>
  (await t.deps.db.select({ n: count() }).from(accounts).where(eq(accounts.workspaceId, t.workspaceId)))[0]!.n

describe.each(CASES)('hosted connect, $platform', (c) => {
  it('signs in with the documented scopes and PKCE use, and stores the identity the adapter reads', async () => {
    const { fake, t } = await setup(c)
    const back = await signIn(t, c.platform)
    const accountId = back.searchParams.get('accountId')
    expect(accountId, back.href).toMatch(/^acc_/)
    const [authorize] = fake.oauth.authorizeRequests
    expect(authorize!.get('scope')).toBe(c.scope)
    expect(authorize!.get('code_challenge_method')).toBe(c.pkce ? 'S256' : null)
    for (const [k, v] of Object.entries(c.authorizeParams ?? {})) expect(authorize!.get(k)).toBe(v)
    expect(authorize!.get('redirect_uri')).toBe(`${t.baseUrl}/oauth/callback/${c.platform}`)

    const account = await (await t.call('GET', `/v1/accounts/${accountId}`)).json()
    expect(account).toMatchObject({ platform: c.platform, connection: 'DIRECT_LOGIN', status: 'ACTIVE' })
    expect(account.tokenExpiresAt).not.toBeNull()
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, accountId!))
    if (c.externalId) expect(row!.externalId).toBe(c.externalId)
    const credentials = await t.deps.cipher.decrypt(row!.credentials, accountId!)
    for (const field of c.credentialFields) expect(credentials[field], field).toBeTruthy()

    const disconnected = await (await t.call('DELETE', `/v1/accounts/${accountId}`)).json()
    expect(disconnected.tokenRevoked).toBe(c.revokes !== false)
    expect(fake.oauth.revoked).toEqual(c.revokes ? [credentials[c.revokes]] : [])
  })

  it('stores nothing when consent is refused or the exchange fails', async () => {
    const { fake, t } = await setup(c)
    fake.oauth.setConsent('deny')
    expect((await signIn(t, c.platform)).searchParams.get('error')).toBe('access_denied')
    fake.oauth.setConsent('approve')
    fake.oauth.failNextExchange({
      status: 500,
      json: { error: 'server_error', error_description: 'Backend unavailable' },
    })
    const failed = await signIn(t, c.platform)
    expect(failed.searchParams.get('error')).toBe('exchange_failed')
    expect(failed.searchParams.get('message')).toContain('Backend unavailable')
    expect(await accountCount(t)).toBe(0)
  })
})
