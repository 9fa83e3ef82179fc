import { describe, expect, it } from 'vitest'
import { media, storedMedia } from '../../support/fixtures'
import { jpeg, paint } from '../../support/media'
import { mountContentPages } from '../../support/dashboard-pages'

const canvasItem = (html: string, canvas: string) =>
  new RegExp(`<li id="canvas-${canvas}">(.*?)</li>`, 's').exec(html)?.[1] ?? ''

describe('crops page', () => {
  it('shows each canvas with the networks that recommend it, makes the crops, and the composer offers them', async () => {
    const p = await mountContentPages()
    const bytes = await jpeg(paint(800, 600, (x, y) => [x % 256, y % 256, 60]))
    const id = await storedMedia(p.t, { bytes, mimeType: 'image/jpeg', width: 800, height: 600, altText: 'Hills' })
    const before = await (await p.get(`/media/${id}/canvases`)).text()
    expect(canvasItem(before, 'story')).toContain('Not made yet.')
    expect(canvasItem(before, 'landscape')).toMatch(/Recommended by: [^<]+/)
    expect(await (await p.get('/compose')).text()).toContain(`href="${p.page(`/media/${id}/canvases`)}"`)

    const made = await p.post(`/media/${id}/canvases`, { fit: 'cover', crop: 'smart' })
    expect([made.status, made.headers.get('location')]).toEqual([303, p.page(`/media/${id}/canvases`)])
    const api = await (await p.t.call('GET', '/v1/media')).json()
    const crops = api.filter((a: { sourceId: string | null }) => a.sourceId === id)
    expect(crops.map((a: { width: number; height: number }) => `${a.width}x${a.height}`).sort()).toEqual([
      '1080x1080',
      '1080x1350',
      '1080x1920',
      '1080x566',
    ])
    const after = await (await p.get(`/media/${id}/canvases`)).text()
    for (const crop of crops) expect(after).toContain(`<code>${crop.id}</code>`)
    expect(canvasItem(after, 'story')).not.toContain('Not made yet.')
    const composer = await (await p.get('/compose')).text()
    for (const crop of crops) expect(composer).toContain(`id="media-${crop.id}"`)
  }, 120_000)

  it("says why a video has no crops, and answers 404 for another workspace's image", async () => {
    const p = await mountContentPages()
    const video = await media(p.t, { type: 'VIDEO' })
    const refused = await p.post(`/media/${video}/canvases`, { fit: 'cover', crop: 'smart' })
    const flash = /sps_flash=[^;]+/.exec(refused.headers.get('set-cookie') ?? '')![0]
    const page = await (await p.request(`/media/${video}/canvases`, { headers: { cookie: flash } })).text()
    expect(page).toMatch(/<p class="problem" role="alert">Variants apply to images only/)

    const other = await mountContentPages()
    const theirs = await media(other.t)
    expect((await p.get(`/media/${theirs}/canvases`)).status).toBe(404)
    expect((await p.post(`/media/${theirs}/canvases`, { fit: 'cover' })).status).toBe(404)
    const theirList = await (await other.t.call('GET', '/v1/media')).json()
    expect(theirList.filter((a: { sourceId: string | null }) => a.sourceId === theirs)).toEqual([])
  })
})
