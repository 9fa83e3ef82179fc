import { describe, expect, it } from 'vitest'
import { createWorkspace } from '../../../src/services/workspace/workspaces'
import { account, storedMedia } from '../../support/fixtures'
import { jpeg, paint } from '../../support/media'
import { mountContentPages, type PagesApp } from '../../support/dashboard-pages'

/** A JSON request as upload.js sends it. */
function scriptPost(p: PagesApp, path: string, body: unknown, given?: string | null) {
  const csrf = given === undefined ? p.csrfToken : given
  return p.request(path, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...(csrf ? { 'x-csrf-token': csrf } : {}) },
  })
}

describe('media library', () => {
  it('uploads straight to storage, registers the file with alt text and folder, and lists it', async () => {
    const p = await mountContentPages()
    const bytes = await jpeg(paint(64, 48, () => [200, 40, 40]))
    const ticketRes = await scriptPost(p, '/media/uploads', {
      filename: 'Red square.jpg',
      contentType: 'image/jpeg',
      sizeBytes: bytes.length,
    })
    expect(ticketRes.status).toBe(200)
    const ticket = await ticketRes.json()
    const put = await fetch(ticket.uploadUrl, {
      method: 'PUT',
      headers: ticket.headers,
      body: new Blob([bytes.slice()]),
    })
    expect(put.status).toBe(200)
    const registered = await scriptPost(p, '/media/register', {
      type: 'IMAGE',
      storageKey: ticket.storageKey,
      url: ticket.url,
      altText: 'A red <square>',
      folder: 'Launch',
    })
    expect(registered.status).toBe(200)
    const asset = await registered.json()
    expect(asset).toMatchObject({ width: 64, height: 48, altText: 'A red <square>' })
    const html = await (await p.get('/media')).text()
    expect(html).toContain(`id="asset-${asset.id}"`)
    expect(html).toContain('A red &lt;square&gt;')
    expect(html).toMatch(/<option value="[^"]+">Launch<\/option>/)
    // The composer offers it, ticked when chosen.
    await account(p.t, 'PHOTO_NET')
    expect(await (await p.get('/compose')).text()).toContain(`value="${asset.id}"`)
  })

  it('refuses a file type the API refuses, and a script request without the CSRF token', async () => {
    const p = await mountContentPages()
    const refused = await scriptPost(p, '/media/uploads', {
      filename: 'x.exe',
      contentType: 'application/x-msdownload',
    })
    expect(refused.status).toBe(422)
    expect((await refused.json()).error).toContain('is not accepted')
    const forged = await scriptPost(p, '/media/uploads', { filename: 'a.jpg', contentType: 'image/jpeg' }, null)
    expect(forged.status).toBe(403)
  })

  it("does not register another workspace's upload", async () => {
    const p = await mountContentPages()
    const other = await createWorkspace(p.t.deps.db, { name: 'Other', planId: 'pro', timezone: 'UTC' })
    const key = `${other.id}/2026/11/theirs.jpg`
    const res = await scriptPost(p, '/media/register', { type: 'IMAGE', storageKey: key, url: `https://x.test/${key}` })
    expect(res.status).toBe(422)
    expect(await (await p.get('/media')).text()).toContain('No media here yet')
  })
})

describe('content assets', () => {
  it("edits a file's alt text and folder from the library, and answers 404 for another workspace's file", async () => {
    const p = await mountContentPages()
    const bytes = await jpeg(paint(64, 48, () => [20, 40, 200]))
    const id = await storedMedia(p.t, { bytes, mimeType: 'image/jpeg', altText: 'Old words' })
    const html = await (await p.get('/media')).text()
    expect(html).toContain(`<label for="alt-${id}">`)
    expect(html).toContain(`action="${p.page(`/media/${id}/edit`)}"`)

    const saved = await p.post(`/media/${id}/edit`, {
      altText: 'A blue field at dusk',
      folderId: '',
      folder: 'Evenings',
    })
    expect([saved.status, saved.headers.get('location')]).toEqual([303, p.page('/media')])
    const asset = await (await p.t.call('GET', `/v1/media/${id}`)).json()
    expect(asset.altText).toBe('A blue field at dusk')
    const folders = await (await p.t.call('GET', `/v1/media?folderId=${asset.folderId}`)).json()
    expect(folders.map((a: { id: string }) => a.id)).toEqual([id])
    const flash = /sps_flash=[^;]+/.exec(saved.headers.get('set-cookie') ?? '')![0]
    const after = await (await p.request('/media', { headers: { cookie: flash } })).text()
    expect(after).toContain('File details saved.')
    expect(after).toContain('<dd>A blue field at dusk</dd>')
    expect(after).toMatch(new RegExp(`<option value="${asset.folderId}" selected="">Evenings</option>`))

    const other = await mountContentPages()
    const theirs = await storedMedia(other.t, { bytes, mimeType: 'image/jpeg', altText: 'Theirs' })
    const refused = await p.post(`/media/${theirs}/edit`, { altText: 'Mine now', folderId: '' })
    expect(refused.status).toBe(404)
    expect((await (await other.t.call('GET', `/v1/media/${theirs}`)).json()).altText).toBe('Theirs')
  })

  it('serves the scripts and styles the pages link, none of them inline', async () => {
    const p = await mountContentPages()
    await account(p.t, 'MICROBLOG_NET')
    const pages = ['/compose', '/calendar', '/media', '/accounts', '/queue', '/analytics']
    for (const path of pages) {
      const res = await p.get(path)
      expect(res.status, path).toBe(200)
      const html = await res.text()
      expect(html, path).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|\sstyle=|\son[a-z]+=/)
      for (const [, src] of html.matchAll(/<script src="([^"]+)"/g)) {
        const asset = await p.absolute(src!)
        expect(asset.status, src).toBe(200)
        expect(asset.headers.get('content-type')).toContain('javascript')
      }
    }
    for (const name of ['content.css', 'app.css']) {
      const css = await p.absolute(`/app/assets/${name}`)
      expect(css.headers.get('content-type'), name).toContain('text/css')
    }
    // The focus ring every page shows lives with the frame's base styles.
    expect(await (await p.absolute('/app/assets/app.css')).text()).toContain(':focus-visible')
  })
})
