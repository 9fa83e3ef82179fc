/**
 * The site publishing network on the hosted connect page, over real HTTP against its fake: a
 * self-hosted site through the form (site address, user name, application password; the address
 * checked by the outbound guard), and WordPress.com through its OAuth, with the chooser listing the
 * sites the user may publish to.
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../../src/db/schema'
import { startSiteFake } from '../../fakes/site'
import { linkHref, readForm, serveTestApp, type ServedApp, visit } from '../../support/browser'

const APP = 'http://app.test'
const rows = (t: ServedApp) => t.deps.db.select().from(accounts).where(eq(accounts.workspaceId, t.workspaceId))

describe('hosted connect, site publishing network', () => {
  it('connects a self-hosted site with an application password, and refuses a wrong one in words', async () => {
    const fake = await startSiteFake({ now: () => new Date() })
    const t = await serveTestApp()
    const link = await (
      await t.call('POST', '/v1/accounts/connect', { body: { platform: 'SITE_NET', connection: 'APP_PASSWORD' } })
    ).json()
    const page = await visit(link.url)
    const form = readForm(page.body)
    expect(Object.keys(form.fields)).toEqual(['siteUrl', 'username', 'applicationPassword'])
    expect(page.body).toMatch(/name="applicationPassword" type="password"/)
    const submit = (fields: Record<string, string>) =>
      visit(new URL(form.action, t.baseUrl).href, { method: 'POST', form: fields })
    const wrong = await submit({ siteUrl: fake.url, username: 'wren', applicationPassword: 'nope nope' })
    expect(wrong.response.status).toBe(422)
    expect(wrong.body).toContain('invalid application password')
    expect(wrong.body).not.toContain('nope nope')
    expect(wrong.body).toContain(`value="${fake.url}"`)
    const done = await submit({
      siteUrl: fake.url,
      username: 'wren',
      applicationPassword: fake.self.applicationPassword,
    })
    expect(done.response.status).toBe(200)
    const [row] = await rows(t)
    expect(row).toMatchObject({
      platform: 'SITE_NET',
      connection: 'APP_PASSWORD',
      externalId: `${new URL(fake.url).host}:7`,
    })
  })

  it('WordPress.com: signs in, offers the sites the user may publish to, connects the chosen one', async () => {
    const fake = await startSiteFake({ now: () => new Date() })
    const t = await serveTestApp({
      connectRedirectOrigins: [APP],
      networks: {
        origins: { SITE_NET_API_URL: fake.url, SITE_NET_AUTHORIZE_URL: fake.url },
        clients: { SITE_NET: { clientId: 'wpcom-client', clientSecret: 'wpcom-secret' } },
      },
    })
    const link = await (
      await t.call('POST', '/v1/accounts/connect', { body: { platform: 'SITE_NET', redirectUrl: `${APP}/cb` } })
    ).json()
    const start = await visit(link.url)
    const chooser = await visit(new URL(linkHref(start.body, 'Continue to'), t.baseUrl).href, { stopAt: APP })
    expect(chooser.response.status).toBe(200)
    const [authorize] = fake.oauth.authorizeRequests
    expect(authorize!.get('scope')).toBe('global')
    expect(authorize!.get('redirect_uri')).toBe(`${t.baseUrl}/oauth/callback/SITE_NET`)
    const boxes = [...chooser.body.matchAll(/name="identity" value="([^"]*)">\s*([^<]+?)\s*<small>([^<]*)<\/small>/g)]
    // The site where the user only reads is not offered.
    expect(boxes.map((b) => b[2])).toEqual(['Wren on the road', 'Wren recipes'])
    const action = /<form method="post" action="([^"]*)">/.exec(chooser.body)![1]!
    const token = /name="choice" value="([^"]*)"/.exec(chooser.body)![1]!
    const recipes = boxes.find((b) => b[2] === 'Wren recipes')![1]!
    const back = await visit(new URL(action, t.baseUrl).href, {
      method: 'POST',
      form: [
        ['choice', token],
        ['identity', recipes],
      ],
      stopAt: APP,
    })
    expect(new URL(back.url).searchParams.getAll('accountId')).toHaveLength(1)
    const [row] = await rows(t)
    expect(row).toMatchObject({
      platform: 'SITE_NET',
      connection: 'DIRECT_LOGIN',
      username: 'Wren recipes',
      externalId: '502',
    })
    const credentials = await t.deps.cipher.decrypt(row!.credentials, row!.id)
    expect(credentials).toMatchObject({ siteId: '502' })
    expect(fake.tokens.has(String(credentials.accessToken))).toBe(true)
  })
})
