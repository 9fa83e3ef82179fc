/**
 * Hosted connect of the blog network (Tumblr's OAuth 2) over real HTTP against its loopback fake:
 * the documented scopes without PKCE, the code traded with the client in the form, then the
 * chooser listing the member's blogs; each blog ticked becomes an account holding the blog's uuid
 * and name with the member's tokens. A reconnect renews its own blog; refused consent stores nothing.
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../../src/db/schema'
import { startBlogFake } from '../../fakes/blog'
import { linkHref, serveTestApp, type ServedApp, visit } from '../../support/browser'

const APP = 'http://app.test'

async function setup() {
  const fake = await startBlogFake()
  const t = await serveTestApp({
    connectRedirectOrigins: [APP],
    networks: {
      origins: { BLOG_NET_API_URL: fake.url, BLOG_NET_AUTHORIZE_URL: fake.url },
      clients: { BLOG_NET: { clientId: 'tumblr-key', clientSecret: 'tumblr-secret' } },
    },
  })
  return { fake, t }
}

async function linkFor(t: ServedApp, path = '/v1/accounts/connect') {
  const res = await t.call('POST', path, { body: { platform: 'BLOG_NET', redirectUrl: `${APP}/cb` } })
  expect(res.status).toBe(200)
  return (await res.json()).url as string
}

async function signIn(t: ServedApp, url: string) {
  const start = await visit(url)
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

const accountRows = (t: ServedApp) => t.deps.db.select().from(accounts).where(eq(accounts.workspaceId, t.workspaceId))

describe('hosted connect, the blog network with its blog chooser', () => {
  it("asks for basic, write and offline_access, lists the member's blogs, and connects the one chosen", async () => {
    const { fake, t } = await setup()
    const page = await signIn(t, await linkFor(t))
    const [authorize] = fake.oauth.authorizeRequests
    expect(authorize!.get('scope')).toBe('basic write offline_access')
    expect(authorize!.get('response_type')).toBe('code')
    expect(authorize!.get('code_challenge')).toBeNull()
    const exchange = fake.calls('POST', '/v2/oauth2/token')[0]!.form()
    expect([exchange.get('grant_type'), exchange.get('client_id'), exchange.get('client_secret')]).toEqual([
      'authorization_code',
      'tumblr-key',
      'tumblr-secret',
    ])
    const { action, token, boxes } = chooser(page.body)
    expect(boxes.map((b) => [b.name, b.externalId])).toEqual([
      ['ada-bakes', 't:AdaBakes0000000000001'],
      ['ada-notes', 't:AdaNotes0000000000002'],
    ])
    expect(page.body).not.toContain(fake.state.accessToken)

    const notes = boxes.find((b) => b.name === 'ada-notes')!
    const back = await visit(new URL(action, t.baseUrl).href, {
      method: 'POST',
      form: [
        ['choice', token],
        ['identity', notes.key],
      ],
      stopAt: APP,
    })
    const [accountId] = new URL(back.url).searchParams.getAll('accountId')
    const [row] = await accountRows(t)
    expect(row).toMatchObject({ id: accountId, username: 'ada-notes', externalId: 't:AdaNotes0000000000002' })
    const credentials = await t.deps.cipher.decrypt(row!.credentials, row!.id)
    expect(credentials).toMatchObject({
      accessToken: fake.state.accessToken,
      refreshToken: fake.state.refreshToken,
      blogId: 't:AdaNotes0000000000002',
      blogName: 'ada-notes',
    })
    expect(Date.parse(String(credentials.expiresAt)) - Date.now()).toBeGreaterThan(2400_000)

    // A reconnect renews the same blog without asking again.
    const again = new URL((await signIn(t, await linkFor(t, `/v1/accounts/${accountId}/reconnect`))).url)
    expect(again.searchParams.getAll('accountId')).toEqual([accountId])
    expect(await accountRows(t)).toHaveLength(1)
  })

  it('stores nothing when the owner refuses consent', async () => {
    const { fake, t } = await setup()
    fake.oauth.setConsent('deny')
    const back = new URL((await signIn(t, await linkFor(t))).url)
    expect(back.origin).toBe(APP)
    expect(back.searchParams.get('error')).toBeTruthy()
    expect(await accountRows(t)).toHaveLength(0)
  })
})
