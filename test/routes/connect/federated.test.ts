/**
 * Hosted connect of a federated-network account over real HTTP: the owner names their server, our
 * app is registered there once and remembered, then the server's own OAuth (PKCE S256) runs.
 */
import { count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, federatedApps } from '../../../src/db/schema'
import { startFederatedFake } from '../../fakes/federated'
import { linkHref, readForm, serveTestApp, type ServedApp, visit } from '../../support/browser'

const APP = 'http://app.test'

async function connectThrough(t: ServedApp, instance: string) {
  const res = await t.call('POST', '/v1/accounts/connect', {
    body: { platform: 'FEDERATED_NET', redirectUrl: `${APP}/cb` },
  })
  expect(res.status).toBe(200)
  const page = await visit((await res.json()).url)
  const form = readForm(page.body)
  expect(Object.keys(form.fields)).toEqual(['instance'])
  const next = await visit(new URL(form.action, t.baseUrl).href, { method: 'POST', form: { instance } })
  if (next.response.status !== 200 || !next.body.includes('Continue to')) return { next, back: null }
  const back = await visit(linkHref(next.body, 'Continue to'), { stopAt: APP })
  return { next, back: new URL(back.url) }
}

const accountCount = async (t: ServedApp) =>
  (await t.deps.db.select({ n: count() }).from(accounts).where(eq(accounts.workspaceId, t.workspaceId)))[0]!.n

describe('hosted connect, federated network', () => {
  it("registers our app on the owner's server once, signs in there with PKCE, and revokes on disconnect", async () => {
    const fake = await startFederatedFake({ now: () => new Date() })
    const t = await serveTestApp({ connectRedirectOrigins: [APP] })
    const { back } = await connectThrough(t, fake.url)
    const accountId = back!.searchParams.get('accountId')!
    expect(accountId).toMatch(/^acc_/)
    expect(fake.apps).toEqual([
      {
        clientId: 'fed-client-1',
        redirectUri: `${t.baseUrl}/oauth/callback/FEDERATED_NET`,
        scopes: 'read:accounts read:statuses write:statuses write:media',
      },
    ])
    const [authorize] = fake.oauth.authorizeRequests
    expect(authorize!.get('code_challenge_method')).toBe('S256')
    expect(authorize!.get('scope')).toBe('read:accounts read:statuses write:statuses write:media')

    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, accountId))
    const credentials = await t.deps.cipher.decrypt(row!.credentials, accountId)
    expect(credentials.instanceUrl).toBe(new URL(fake.url).origin)
    const [app] = await t.deps.db.select().from(federatedApps)
    expect(app!.clientSecret).not.toContain('fed-secret-1')

    // A second connect on the same server uses the remembered app.
    const again = await connectThrough(t, new URL(fake.url).host)
    expect(again.back).toBeNull() // the host alone means https, which the loopback fake does not speak
    const third = await connectThrough(t, fake.url)
    expect(third.back!.searchParams.get('accountId')).toBe(accountId)
    expect(fake.apps).toHaveLength(1)
    const [renewed] = await t.deps.db.select().from(accounts).where(eq(accounts.id, accountId))
    const { accessToken } = await t.deps.cipher.decrypt(renewed!.credentials, accountId)

    const gone = await (await t.call('DELETE', `/v1/accounts/${accountId}`)).json()
    expect(gone.tokenRevoked).toBe(true)
    expect(fake.oauth.revoked).toEqual([accessToken])
  })

  it('refuses a private server address without calling it, and stores nothing', async () => {
    const fake = await startFederatedFake({ now: () => new Date() })
    const t = await serveTestApp({ allowPrivateUrls: false, connectRedirectOrigins: [APP] })
    const { next } = await connectThrough(t, fake.url)
    expect(next.response.status).toBe(422)
    expect(next.body).toContain('The server address is not accepted')
    expect(fake.apps).toEqual([])
    expect(await accountCount(t)).toBe(0)
  })

  it('answers a server that cannot be reached with the address form again (422), not a gateway error', async () => {
    const t = await serveTestApp({ connectRedirectOrigins: [APP] })
    const { next } = await connectThrough(t, 'http://127.0.0.1:9') // nothing listens there
    expect(next.response.status).toBe(422)
    expect(next.body).toContain('could not be reached')
    expect(Object.keys(readForm(next.body).fields)).toEqual(['instance'])
    expect(await accountCount(t)).toBe(0)
  })
})
