import { describe, expect, it } from 'vitest'
import { account } from '../support/fixtures'
import { mountContentPages, type PagesApp } from '../support/dashboard-pages'

/** The settings pages sit under the workspace like the working pages; `p.page('/settings…')` reaches them. */
const settings = (p: PagesApp, path = '') => p.get(`/settings${path}`)

describe('settings forms', () => {
  it('saves the workspace name and time zone, refuses an unknown zone beside its field, and keeps members out', async () => {
    const p = await mountContentPages({ role: 'owner' })
    const saved = await p.post('/settings', { name: '  Northwind Studio ', timezone: 'Europe/Lisbon' })
    expect(saved.status).toBe(200)
    expect(await saved.text()).toContain('Saved.')
    const me = await (await p.t.call('GET', '/v1/me')).json()
    expect(me).toMatchObject({ timezone: 'Europe/Lisbon' })

    const refused = await p.post('/settings', { name: 'Northwind Studio', timezone: 'Mars/Olympus_Mons' })
    expect(refused.status).toBe(400)
    const html = await refused.text()
    expect(html).toContain('aria-describedby="f-timezone-error"')
    expect(html).toMatch(/id="f-timezone-error"[^>]*>[^<]*Mars\/Olympus_Mons/)
    expect((await (await p.t.call('GET', '/v1/me')).json()).timezone).toBe('Europe/Lisbon')

    const member = await mountContentPages({ role: 'member' })
    expect((await member.post('/settings', { name: 'Taken over', timezone: 'UTC' })).status).toBe(403)
  })

  it('adds a webhook endpoint with its secret shown once, lists its deliveries, replays one and deletes it', async () => {
    const p = await mountContentPages({ role: 'admin' })
    const added = await p.post('/settings/webhooks', {
      url: 'https://hooks.example.test/sps',
      events: ['post.deleted', 'post.published'],
    })
    expect(added.status).toBe(200)
    const page = await added.text()
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(page)?.[0]
    expect(secret).toBeDefined()
    expect(await (await settings(p, '/webhooks')).text()).not.toContain(secret!)
    const [endpoint] = await (await p.t.call('GET', '/v1/webhooks')).json().then((b) => b.data ?? b)
    expect(endpoint.url).toBe('https://hooks.example.test/sps')
    expect([...endpoint.events].sort()).toEqual(['post.deleted', 'post.published'])

    // An event the endpoint subscribes to: a draft deleted.
    const micro = await account(p.t, 'MICROBLOG_NET')
    const draft = await (
      await p.t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', caption: 'x', accountIds: [micro.id], mediaIds: [], action: 'draft' },
      })
    ).json()
    expect((await p.t.call('DELETE', `/v1/posts/${draft.id}`)).status).toBeLessThan(300)
    const listed = await (await settings(p, '/webhooks')).text()
    const replay = new RegExp(`/settings/webhooks/${endpoint.id}/replay/(evt_[0-9A-Za-z]+)`).exec(listed)
    expect(listed).toContain('<td data-label="Event">post.deleted</td>')
    expect(replay).not.toBeNull()
    const replayed = await p.post(`/settings/webhooks/${endpoint.id}/replay/${replay![1]}`, {})
    expect([replayed.status, (await replayed.text()).includes('Event sent again.')]).toEqual([200, true])

    const other = await mountContentPages({ role: 'owner' })
    expect((await other.post(`/settings/webhooks/${endpoint.id}/delete`, {})).status).toBe(404)
    expect((await p.t.call('GET', `/v1/webhooks/${endpoint.id}`)).status).toBe(200)
    const deleted = await p.post(`/settings/webhooks/${endpoint.id}/delete`, {})
    expect([deleted.status, (await deleted.text()).includes('Endpoint deleted.')]).toEqual([200, true])
    expect((await p.t.call('GET', `/v1/webhooks/${endpoint.id}`)).status).toBe(404)
  })
})
