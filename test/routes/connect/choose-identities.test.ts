/**
 * The identity chooser of the hosted connect page, over real HTTP against the page network's
 * loopback fake (Facebook Login, the long-lived token exchange, `/me/accounts`): a sign-in that
 * manages several Pages shows them; the Pages ticked become accounts together, with their own Page
 * tokens; none ticked stores nothing; a choice is taken once; a reconnect takes its own Page. The
 * professional network offers the member and the organisations they administer.
 */
import { count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, connectChoices } from '../../../src/db/schema'
import { startPhotoFake } from '../../fakes/photo'
import { startProfessionalFake } from '../../fakes/professional'
import { startSocialGraphFake } from '../../fakes/social-graph'
import { linkHref, serveTestApp, type ServedApp, visit } from '../../support/browser'

const APP = 'http://app.test'
const OTHER_PAGES = [
  { id: '2020', name: 'Harbour Cafe', token: 'EAAPageHarbour', tasks: ['CREATE_CONTENT', 'MANAGE'] },
  { id: '3030', name: 'Night Market', token: 'EAAPageMarket', tasks: ['CREATE_CONTENT'] },
  // A Page the member may only read insights of: not offered.
  { id: '4040', name: 'Read Only Page', token: 'EAAPageReadOnly', tasks: ['ANALYZE'] },
]

async function setup() {
  const pages = OTHER_PAGES.map((p) => ({ ...p }))
  const fake = await startSocialGraphFake({ otherPages: pages })
  const t = await serveTestApp({
    connectRedirectOrigins: [APP],
    networks: {
      origins: { SOCIALGRAPH_NET_API_URL: fake.url, SOCIALGRAPH_NET_AUTHORIZE_URL: fake.url },
      clients: { SOCIALGRAPH_NET: { clientId: 'fb-app', clientSecret: 'fb-secret' } },
    },
  })
  return { fake, t, pages }
}

async function linkFor(t: ServedApp, path = '/v1/accounts/connect') {
  const body = path.endsWith('/connect') ? { platform: 'SOCIALGRAPH_NET', redirectUrl: `${APP}/cb` } : {}
  const res = await t.call('POST', path, { body: { ...body, redirectUrl: `${APP}/cb` } })
  expect(res.status).toBe(200)
  return (await res.json()).url as string
}

/** Link -> start page -> Facebook's dialog -> our callback: the chooser page, or the caller's page. */
async function signIn(t: ServedApp, url: string) {
  const start = await visit(url)
  return visit(new URL(linkHref(start.body, 'Continue to'), t.baseUrl).href, { stopAt: APP })
}

/** The chooser's boxes (key and the name beside it), its action and its token. */
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

const accountRows = (t: ServedApp) => t.deps.db.select().from(accounts).where(eq(accounts.workspaceId, t.workspaceId))
const pendingChoices = async (t: ServedApp) => (await t.deps.db.select({ n: count() }).from(connectChoices))[0]!.n

describe('hosted connect, choosing among the Pages a sign-in manages', () => {
  it('lists the Pages that can be posted to; the two chosen become two accounts with their own Page tokens', async () => {
    const { fake, t } = await setup()
    const page = await signIn(t, await linkFor(t))
    expect(page.response.status).toBe(200)
    const [authorize] = fake.oauth.authorizeRequests
    expect(authorize!.get('scope')).toBe(
      'pages_show_list,pages_manage_posts,pages_read_engagement,read_insights,publish_video',
    )
    expect(authorize!.get('redirect_uri')).toBe(`${t.baseUrl}/oauth/callback/SOCIALGRAPH_NET`)
    const { action, token, boxes } = chooser(page.body)
    expect(boxes.map((b) => b.name)).toEqual(['Corner Bakery', 'Harbour Cafe', 'Night Market'])
    // Nothing is an account yet; the pending choice holds the Page tokens sealed.
    expect(await accountRows(t)).toHaveLength(0)
    const [held] = await t.deps.db.select().from(connectChoices)
    expect(held!.identities).not.toContain('EAAPageHarbour')
    expect(page.body).not.toContain('EAAPage')

    const picked = boxes.filter((b) => b.name !== 'Corner Bakery').map((b) => b.key)
    const back = new URL((await choose(t, action, token, picked)).url)
    expect(back.origin).toBe(APP)
    const ids = back.searchParams.getAll('accountId')
    expect(ids).toHaveLength(2)
    const rows = await accountRows(t)
    expect(rows.map((r) => [r.username, r.externalId]).sort()).toEqual([
      ['Harbour Cafe', '2020'],
      ['Night Market', '3030'],
    ])
    for (const row of rows) {
      const credentials = await t.deps.cipher.decrypt(row.credentials, row.id)
      const expected = OTHER_PAGES.find((p) => p.id === row.externalId)!
      expect(credentials).toEqual({ accessToken: expected.token, pageId: expected.id })
    }
    expect(await pendingChoices(t)).toBe(0)

    // The same choice posted again is refused and connects nothing more.
    const replay = await choose(t, action, token, picked)
    expect(replay.response.status).toBe(410)
    expect(replay.body).toContain('already made')
    expect(await accountRows(t)).toHaveLength(2)
  })

  it('stores nothing when no Page is ticked, and says so', async () => {
    const { t } = await setup()
    const page = await signIn(t, await linkFor(t))
    const { action, token } = chooser(page.body)
    const back = new URL((await choose(t, action, token, [])).url)
    expect(back.searchParams.get('error')).toBe('nothing_chosen')
    expect(back.searchParams.get('message')).toContain('none was connected')
    expect(await accountRows(t)).toHaveLength(0)
    expect(await pendingChoices(t)).toBe(0)
  })

  it('refuses a choice token that was never offered', async () => {
    const { t } = await setup()
    const page = await signIn(t, await linkFor(t))
    const { action, boxes } = chooser(page.body)
    const forged = await choose(t, action, 'not-the-token', [boxes[0]!.key])
    expect(forged.response.status).toBe(410)
    expect(await accountRows(t)).toHaveLength(0)
  })

  it('a reconnect renews its own Page without asking, and refuses a sign-in that no longer manages it', async () => {
    const { t, pages } = await setup()
    const first = chooser((await signIn(t, await linkFor(t))).body)
    const harbour = first.boxes.find((b) => b.name === 'Harbour Cafe')!
    const accountId = new URL((await choose(t, first.action, first.token, [harbour.key])).url).searchParams.get(
      'accountId',
    )!

    const again = await signIn(t, await linkFor(t, `/v1/accounts/${accountId}/reconnect`))
    const back = new URL(again.url)
    expect(back.searchParams.getAll('accountId')).toEqual([accountId])
    expect(await accountRows(t)).toHaveLength(1)

    pages.splice(0, 1) // The member no longer manages Harbour Cafe.
    const refused = new URL((await signIn(t, await linkFor(t, `/v1/accounts/${accountId}/reconnect`))).url)
    expect(refused.searchParams.get('error')).toBe('identity_mismatch')
    expect(refused.searchParams.get('message')).toContain('Harbour Cafe')
    expect(await accountRows(t)).toHaveLength(1)
  })
})

describe('hosted connect, the professional member or the organisations they administer', () => {
  it('offers the member and each organisation where the role is an approved ADMINISTRATOR', async () => {
    const fake = await startProfessionalFake({
      roles: [
        { orgId: '2414183', role: 'ADMINISTRATOR', state: 'APPROVED' },
        { orgId: '555', role: 'ANALYST', state: 'APPROVED' },
        { orgId: '777', role: 'ADMINISTRATOR', state: 'REQUESTED' },
      ],
    })
    const t = await serveTestApp({
      connectRedirectOrigins: [APP],
      networks: {
        origins: { PROFESSIONAL_NET_API_URL: fake.url, PROFESSIONAL_NET_OAUTH_URL: fake.url },
        clients: { PROFESSIONAL_NET: { clientId: 'li-client', clientSecret: 'li-secret' } },
      },
    })
    const res = await t.call('POST', '/v1/accounts/connect', {
      body: { platform: 'PROFESSIONAL_NET', redirectUrl: `${APP}/cb` },
    })
    const page = await signIn(t, (await res.json()).url)
    const { action, token, boxes } = chooser(page.body)
    expect(boxes.map((b) => [b.name, b.externalId])).toEqual([
      ['Ada Lovelace', 'urn:li:person:abc123'],
      ['Analytical Engines Ltd', 'urn:li:organization:2414183'],
    ])
    const org = boxes.find((b) => b.externalId.includes('organization'))!
    const back = new URL((await choose(t, action, token, [org.key])).url)
    const [accountId] = back.searchParams.getAll('accountId')
    const [row] = await accountRows(t)
    expect(row!.id).toBe(accountId)
    expect(row!.username).toBe('Analytical Engines Ltd')
    const credentials = await t.deps.cipher.decrypt(row!.credentials, row!.id)
    expect(credentials.authorUrn).toBe('urn:li:organization:2414183')
    expect(credentials.accessToken).toBe(fake.state.token)
  })
})

describe('hosted connect, the photo network through Facebook Login', () => {
  it("offers the professional accounts behind the member's Pages, on a long-lived token", async () => {
    const fake = await startPhotoFake({
      host: 'facebook',
      username: 'bakery',
      otherPages: [
        { id: '2020', name: 'Harbour Cafe', ig: { id: '17841400000000002', username: 'harbourcafe' } },
        { id: '3030', name: 'No Instagram Here' },
      ],
    })
    const t = await serveTestApp({
      connectRedirectOrigins: [APP],
      networks: {
        origins: { PHOTO_NET_API_URL: fake.url, PHOTO_NET_AUTHORIZE_URL: fake.url },
        clients: { PHOTO_NET: { clientId: 'fb-app', clientSecret: 'fb-secret' } },
      },
    })
    const res = await t.call('POST', '/v1/accounts/connect', {
      body: { platform: 'PHOTO_NET', redirectUrl: `${APP}/cb` },
    })
    const page = await signIn(t, (await res.json()).url)
    expect(fake.oauth.authorizeRequests[0]!.get('scope')).toContain('instagram_content_publish')
    const { action, token, boxes } = chooser(page.body)
    expect(boxes.map((b) => b.name)).toEqual(['bakery', 'harbourcafe'])
    await choose(
      t,
      action,
      token,
      boxes.map((b) => b.key),
    )
    const rows = await accountRows(t)
    expect(rows.map((r) => [r.connection, r.externalId]).sort()).toEqual([
      ['SOCIALGRAPH_LOGIN', '17841400000000001'],
      ['SOCIALGRAPH_LOGIN', '17841400000000002'],
    ])
    // The long-lived user token, with its expiry: the account's health shows when to reconnect.
    const account = await (await t.call('GET', `/v1/accounts/${rows[0]!.id}`)).json()
    expect(Date.parse(account.tokenExpiresAt) - Date.now()).toBeGreaterThan(59 * 86_400_000)
    const credentials = await t.deps.cipher.decrypt(rows[0]!.credentials, rows[0]!.id)
    expect(credentials.accessToken).toBe(fake.state.token)
  })
})
