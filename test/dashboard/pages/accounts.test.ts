import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { connectLinks } from '../../../src/db/schema'
import { setMemberGroups } from '../../../src/services/people/memberships'
import { group } from '../../support/groups'
import { account } from '../../support/fixtures'
import { mountContentPages, otherWorkspaceAccount } from '../../support/dashboard-pages'

describe('accounts page', () => {
  it('lists each account with its health, escaped', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET', '<img src=x>')
    const html = await (await p.get('/accounts')).text()
    expect(html).toContain(`id="account-${micro.id}"`)
    expect(html).toContain('&lt;img src=x&gt;')
    expect(html).toContain('badge-active')
    expect(html).toContain(`action="${p.page(`/accounts/${micro.id}/reconnect`)}"`)
  })

  it('connect opens the hosted connect page, which sends the member back to this page', async () => {
    const p = await mountContentPages({ publicUrl: 'http://127.0.0.1:8787' })
    const res = await p.post('/accounts/connect', { platform: 'PHOTO_NET', connection: 'SANDBOX' })
    expect(res.status).toBe(303)
    const link = res.headers.get('location')!
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:8787\/connect\/[A-Za-z0-9]+$/)
    // The link's page works (the API's own hosted connect), and the return address was accepted.
    const page = await p.t.app.request(new URL(link).pathname, { headers: { 'x-forwarded-for': p.t.ip } })
    expect(page.status).toBe(200)
  })

  it('connects through the way chosen: a form connection of a network with OAuth, and refuses one it does not take', async () => {
    const p = await mountContentPages({ publicUrl: 'http://127.0.0.1:8787' })
    const html = await (await p.get('/accounts')).text()
    for (const value of ['APP_PASSWORD', 'API_KEY', 'DIRECT_LOGIN', 'SANDBOX'])
      expect(html).toContain(`value="${value}"`)
    const res = await p.post('/accounts/connect', { platform: 'SITE_NET', connection: 'APP_PASSWORD' })
    expect(res.status).toBe(303)
    const page = await p.t.app.request(new URL(res.headers.get('location')!).pathname, {
      headers: { 'x-forwarded-for': p.t.ip },
    })
    expect(await page.text()).toContain('name="applicationPassword"')
    const refused = await p.post('/accounts/connect', { platform: 'DEVBLOG_NET', connection: 'BOT_TOKEN' })
    expect(refused.status).toBe(303)
    expect(refused.headers.get('location')).not.toMatch(/\/connect\//)
    const flash = (refused.headers.get('set-cookie') ?? '').split(';')[0]!
    const shown = await p.request('/accounts', { headers: { cookie: flash } })
    expect(await shown.text()).toContain('DEVBLOG_NET connects through API_KEY')
  })

  it('offers the groups to connect into: all of them and none for a whole-workspace member, only theirs when limited', async () => {
    const p = await mountContentPages({ publicUrl: 'http://127.0.0.1:8787' })
    expect(await (await p.get('/accounts')).text()).not.toContain('name="groupId"')
    const ga = await group(p.t, 'Client A')
    const gb = await group(p.t, 'Client B')
    const gc = await group(p.t, 'Client C')
    const open = await (await p.get(`/accounts?groupId=${gb.id}`)).text()
    expect(open).toContain('<option value="">No group</option>')
    expect(open).toContain(`<option value="${gb.id}" selected="">Client B</option>`)
    for (const g of [ga, gc]) expect(open).toContain(`value="${g.id}"`)

    await setMemberGroups(p.t.deps.db, p.t.workspaceId, p.member.userId, [ga.id, gb.id])
    const limited = await (await p.get('/accounts')).text()
    expect(limited).toMatch(/<select name="groupId" id="groupId" required="">/)
    expect(limited).not.toContain('No group')
    expect(limited).not.toContain(`value="${gc.id}"`)
    const sandbox = { platform: 'PHOTO_NET', connection: 'SANDBOX' }
    const refused = await p.post('/accounts/connect', sandbox)
    expect(refused.headers.get('location')).not.toMatch(/\/connect\//)
    const flash = (refused.headers.get('set-cookie') ?? '').split(';')[0]!
    expect(await (await p.request('/accounts', { headers: { cookie: flash } })).text()).toContain(
      'several account groups',
    )
    const outside = await p.post('/accounts/connect', { ...sandbox, groupId: gc.id })
    expect(outside.headers.get('location')).not.toMatch(/\/connect\//)
    const res = await p.post('/accounts/connect', { ...sandbox, groupId: gb.id })
    expect(res.headers.get('location')).toMatch(/\/connect\//)
    const links = await p.t.deps.db.select().from(connectLinks).where(eq(connectLinks.workspaceId, p.t.workspaceId))
    expect(links.map((l) => l.groupId)).toEqual([gb.id])
  })

  it('says its own words for a refused connection, never the text of the address', async () => {
    const p = await mountContentPages()
    const html = await (await p.get('/accounts?error=access_denied&message=Your+account+is+locked,+call+us')).text()
    expect(html).toContain('The network says access was not granted, so no account was connected.')
    expect(html).not.toContain('call us')
    const odd = await (await p.get('/accounts?error=<b>call-us</b>')).text()
    expect(odd).toContain('The account was not connected, for a reason this page does not recognise.')
    expect(odd).not.toMatch(/call-?us/)
  })

  it('disconnects after a confirmation step', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET', 'micro')
    const confirm = await p.get(`/accounts/${micro.id}/disconnect`)
    expect(confirm.status).toBe(200)
    expect(await confirm.text()).toContain('Disconnect micro (Microblog)?')
    const res = await p.post(`/accounts/${micro.id}/disconnect`, {})
    expect(res.status).toBe(303)
    const [stored] = await (await p.t.call('GET', '/v1/accounts')).json()
    expect(stored.status).toBe('DISCONNECTED')
  })

  it("another workspace's account is not found and stays connected", async () => {
    const p = await mountContentPages()
    const { theirs } = await otherWorkspaceAccount(p.t)
    expect((await p.get(`/accounts/${theirs.id}/disconnect`)).status).toBe(404)
    expect((await p.post(`/accounts/${theirs.id}/disconnect`, {})).status).toBe(404)
    expect((await p.post(`/accounts/${theirs.id}/reconnect`, {})).status).toBe(404)
    expect(await (await p.get('/accounts')).text()).not.toContain(theirs.id)
  })
})
