import { describe, expect, it } from 'vitest'
import { signUp } from '../../src/services/people/users'
import { randomBase62 } from '../../src/lib/ids'
import { signInMember } from '../support/dashboard'
import { createTestApp } from '../support/test-app'

const FORM_TYPE = 'application/x-www-form-urlencoded'
const post = (cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { cookie, 'content-type': FORM_TYPE, ...headers },
  body: new URLSearchParams(fields).toString(),
})

describe('dashboard workspace pages', () => {
  it("answers 404 for another workspace's pages, and for a workspace that does not exist", async () => {
    const t = await createTestApp()
    const other = await signUp(t.deps, {
      email: `o-${randomBase62(6)}@example.com`,
      name: 'O',
      password: 'maple kettle orbit',
    })
    const { cookie } = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'owner' })
    for (const path of ['/settings', '/settings/tokens', '/settings/members', '/calendar']) {
      const res = await t.app.request(`/app/w/${other.workspaceId}${path}`, { headers: { cookie } })
      expect(res.status).toBe(404)
      expect(await res.text()).not.toContain(other.user.email)
    }
    expect((await t.app.request('/app/w/ws_nothing/settings', { headers: { cookie } })).status).toBe(404)
  })

  it('refuses a state-changing request without the session CSRF token, or from another origin', async () => {
    const t = await createTestApp()
    const { cookie, csrfToken } = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'admin' })
    const tokens = `/app/w/${t.workspaceId}/settings/tokens`
    expect((await t.app.request(tokens, post(cookie, { name: 'x' }))).status).toBe(403)
    expect((await t.app.request(tokens, post(cookie, { name: 'x', _csrf: 'wrong' }))).status).toBe(403)
    const foreign = post(cookie, { name: 'x', _csrf: csrfToken }, { origin: 'https://evil.example' })
    expect((await t.app.request(tokens, foreign)).status).toBe(403)
    const scripted = await t.app.request(tokens, post(cookie, { name: 'x' }, { 'x-csrf-token': csrfToken }))
    expect(scripted.status).toBe(200)
  })

  it('creates a token shown once that works against /v1/me, lists it, and revokes it', async () => {
    const t = await createTestApp()
    const { cookie, csrfToken } = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'admin' })
    const tokens = `/app/w/${t.workspaceId}/settings/tokens`
    const created = await (await t.app.request(tokens, post(cookie, { name: 'ci', _csrf: csrfToken }))).text()
    const secret = /(sps_[0-9A-Za-z]{43})/.exec(created)![1]!
    expect((await t.call('GET', '/v1/me', { token: secret })).status).toBe(200)
    const list = await (await t.app.request(tokens, { headers: { cookie } })).text()
    expect(list).not.toContain(secret)
    const tokenId = /\/settings\/tokens\/(tok_[0-9A-Za-z]+)\/revoke/.exec(list.split('ci</td>')[1]!)![1]!
    const revoked = await t.app.request(`${tokens}/${tokenId}/revoke`, post(cookie, { _csrf: csrfToken }))
    expect(revoked.status).toBe(200)
    expect((await t.call('GET', '/v1/me', { token: secret })).status).toBe(401)
  })

  it('lets members look at settings but not manage them', async () => {
    const t = await createTestApp()
    const { cookie, csrfToken } = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'member' })
    const base = `/app/w/${t.workspaceId}/settings`
    const page = await t.app.request(`${base}/tokens`, { headers: { cookie } })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('only its owners and admins can change these settings')
    for (const path of ['/tokens', '/invitations', '', '/webhooks']) {
      const res = await t.app.request(`${base}${path}`, post(cookie, { _csrf: csrfToken, name: 'x', role: 'member' }))
      expect(res.status).toBe(403)
    }
  })

  it("refuses an invitation when the plan's seats are all taken, with the figure", async () => {
    const t = await createTestApp({ plan: 'free' }) // 1 seat, taken by the owner
    const owner = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'owner' })
    const res = await t.app.request(
      `/app/w/${t.workspaceId}/settings/invitations`,
      post(owner.cookie, { _csrf: owner.csrfToken, role: 'member' }),
    )
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('Your plan allows 1 seats')
  })
})
