import { describe, expect, it } from 'vitest'
import { notify } from '../../../src/services/notifications/notify'
import { mountContentPages, type PagesApp } from '../../support/dashboard-pages'

async function tell(p: PagesApp, title: string) {
  await p.t.deps.db.transaction((tx) =>
    notify(tx, {
      workspaceId: p.t.workspaceId,
      kind: 'mentioned',
      recipients: { userIds: [p.member.userId] },
      title,
      body: 'Can we move this to Friday?',
      link: `/app/w/${p.t.workspaceId}/posts/post_x`,
      subject: { type: 'post', id: 'post_x' },
      now: new Date(),
    }),
  )
}

describe('notifications in the dashboard', () => {
  it('shows the unread count on the bell, lists, opens (read) and marks all read', async () => {
    const p = await mountContentPages({ role: 'reviewer' })
    await tell(p, 'Olga mentioned you in a note')
    await tell(p, 'Adam mentioned you in a note')
    const page = await (await p.get('/notifications')).text()
    expect(page).toMatch(/Notifications<\/span><span class="nav-count" data-unread="2">/)
    expect(page).toContain('Olga mentioned you in a note')
    const id = /data-notification="(ntf_[A-Za-z0-9]+)"/.exec(page)![1]!

    const opened = await p.post(`/notifications/${id}/read`, { open: '1' })
    expect(opened.status).toBe(303)
    expect(opened.headers.get('location')).toBe(`/app/w/${p.t.workspaceId}/posts/post_x`)
    expect(await (await p.get('/notifications')).text()).toContain('data-unread="1"')

    expect((await p.post('/notifications/read-all', {})).status).toBe(303)
    const after = await (await p.get('/notifications?unread=1')).text()
    expect(after).not.toContain('data-unread=')
    expect(after).toContain('Nothing unread')
  })

  it('lets every role choose its channels under settings', async () => {
    const p = await mountContentPages({ role: 'member' })
    const page = await (await p.get('/settings/notifications')).text()
    expect(page).toContain('Someone mentions you in a note')
    expect(page).not.toContain('only its owners and admins can change')
    const saved = await p.post('/settings/notifications', { inApp_mentioned: '1' })
    expect(saved.status).toBe(200)
    const html = await saved.text()
    expect(html).toContain('Saved.')
    expect(html).toMatch(/name="inApp_mentioned" value="1" checked/)
    expect(html).not.toMatch(/name="email_mentioned" value="1" checked/)
  })
})
