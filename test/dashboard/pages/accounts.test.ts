import { describe, expect, it } from 'vitest'
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
