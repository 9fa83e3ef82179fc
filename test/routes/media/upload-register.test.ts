import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../support/test-app'
import { jpeg, mp4, paint, png, upload, uploadAsset } from '../../support/media'
import { waitForRoomInCurrentMinute } from '../../support/minute'

const photo = () => jpeg(paint(64, 48, (x, y) => [x * 4, y * 5, 128]))

describe('POST /v1/media/uploads', () => {
  it('presigns a PUT under the workspace with a readable key, the content type and length signed, 10 minutes', async () => {
    const t = await createTestApp()
    const before = Date.now()
    const res = await t.call('POST', '/v1/media/uploads', {
      body: { filename: 'Été à Paris (final).JPG', contentType: 'image/jpeg', sizeBytes: 1234 },
    })
    expect(res.status).toBe(200)
    const body = await res.json()
    const yyyy = String(new Date().getUTCFullYear())
    const mm = String(new Date().getUTCMonth() + 1).padStart(2, '0')
    expect(body.storageKey).toMatch(
      new RegExp(`^${t.workspaceId}/${yyyy}/${mm}/[0-9A-Za-z]{12}-ete-a-paris-final\\.jpg$`),
    )
    expect(body.method).toBe('PUT')
    expect(body.headers).toEqual({ 'Content-Type': 'image/jpeg', 'Content-Length': '1234' })
    expect(body.maxSizeBytes).toBe(2_000_000_000)
    const url = new URL(body.uploadUrl)
    expect(url.pathname.endsWith(`/${body.storageKey}`)).toBe(true)
    expect(url.searchParams.get('X-Amz-Expires')).toBe('600')
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toEqual(
      expect.arrayContaining(['content-type', 'content-length', 'host']),
    )
    expect(Date.parse(body.expiresAt) - before).toBeGreaterThanOrEqual(599_000)
    expect(Date.parse(body.expiresAt) - Date.now()).toBeLessThanOrEqual(600_000)
    expect(body.url).toMatch(new RegExp(`/${body.storageKey.replace(/\./g, '\\.')}$`))
  })

  it('puts the bytes straight into the store: the public url serves them with the signed content type', async () => {
    const t = await createTestApp()
    const bytes = await photo()
    const ticket = await upload(t, bytes, 'image/jpeg')
    const served = await fetch(ticket.url)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/jpeg')
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes)
  })

  it('refuses an expired URL (the store checks X-Amz-Expires)', async () => {
    const t = await createTestApp()
    const ticket = await (
      await t.call('POST', '/v1/media/uploads', { body: { filename: 'a.jpg', contentType: 'image/jpeg' } })
    ).json()
    const expired = new URL(ticket.uploadUrl)
    expired.searchParams.set('X-Amz-Date', '20200101T000000Z')
    const put = await fetch(expired, { method: 'PUT', headers: ticket.headers, body: 'x' })
    expect(put.status).toBe(403)
  })

  it('refuses unsupported types and sizes over the cap with 422 media_not_supported', async () => {
    const t = await createTestApp()
    const pdf = await t.call('POST', '/v1/media/uploads', {
      body: { filename: 'a.pdf', contentType: 'application/pdf' },
    })
    expect(pdf.status).toBe(422)
    expect((await pdf.json()).error).toMatchObject({ code: 'media_not_supported', details: [{ path: 'contentType' }] })
    const big = await t.call('POST', '/v1/media/uploads', {
      body: { filename: 'a.mp4', contentType: 'video/mp4', sizeBytes: 2_000_000_001 },
    })
    expect(big.status).toBe(422)
    expect((await big.json()).error.details).toEqual([
      { path: 'sizeBytes', limit: 2_000_000_000, actual: 2_000_000_001 },
    ])
    const missing = await t.call('POST', '/v1/media/uploads', { body: { filename: 'a.jpg' } })
    expect(missing.status).toBe(400)
  })

  it('has its own rate limit bucket of 60 a minute', async () => {
    await waitForRoomInCurrentMinute(10_000, { onlyWithRedis: true })
    const t = await createTestApp()
    const res = await t.call('POST', '/v1/media/uploads', { body: { filename: 'a.jpg', contentType: 'image/jpeg' } })
    expect(res.headers.get('ratelimit-limit')).toBe('60')
    expect(res.headers.get('ratelimit-remaining')).toBe('59')
    for (let i = 0; i < 59; i++)
      await t.call('POST', '/v1/media/uploads', { body: { filename: 'a.jpg', contentType: 'image/jpeg' } })
    const refused = await t.call('POST', '/v1/media/uploads', {
      body: { filename: 'a.jpg', contentType: 'image/jpeg' },
    })
    expect(refused.status).toBe(429)
    expect((await t.call('GET', '/v1/media')).status).toBe(200)
  })
})

describe('POST /v1/media', () => {
  it('registers an image with type, size and dimensions read from the object, alt text and a folder', async () => {
    const t = await createTestApp()
    const bytes = await photo()
    const ticket = await upload(t, bytes, 'image/jpeg')
    const res = await t.call('POST', '/v1/media', {
      body: {
        type: 'IMAGE',
        storageKey: ticket.storageKey,
        url: ticket.url,
        mimeType: 'image/jpg',
        width: 64,
        height: 48,
        sizeBytes: bytes.length,
        altText: 'A gradient',
        folder: 'Launch',
      },
    })
    const asset = await res.json()
    expect(res.status, JSON.stringify(asset)).toBe(200)
    expect(asset).toEqual({
      id: expect.stringMatching(/^med_/),
      type: 'IMAGE',
      storageKey: ticket.storageKey,
      url: ticket.url,
      mimeType: 'image/jpeg',
      width: 64,
      height: 48,
      durationSec: null,
      sizeBytes: bytes.length,
      altText: 'A gradient',
      folderId: expect.stringMatching(/^fld_/),
      sourceId: null,
      createdAt: expect.any(String),
    })
    // The same key again is the same asset; the same folder name is the same folder.
    const again = await t.call('POST', '/v1/media', {
      body: { type: 'IMAGE', storageKey: ticket.storageKey, url: ticket.url },
    })
    expect((await again.json()).id).toBe(asset.id)
    const other = await uploadAsset(t, await png(paint(3, 2, () => [0, 0, 0])), 'image/png', { folder: 'Launch' })
    expect(other).toMatchObject({ mimeType: 'image/png', width: 3, height: 2, folderId: asset.folderId })
    expect((await t.call('GET', `/v1/media/${asset.id}`)).status).toBe(200)
  })

  it("reads a video's duration and size from its moov box, at the end of the file or not", async () => {
    const t = await createTestApp()
    for (const fastStart of [false, true]) {
      const bytes = mp4({ durationSec: 12.5, width: 1080, height: 1920, fastStart })
      const asset = await uploadAsset(t, bytes, 'video/mp4', { durationSec: 12.4 })
      expect(asset).toMatchObject({
        type: 'VIDEO',
        mimeType: 'video/mp4',
        width: 1080,
        height: 1920,
        durationSec: 12.5,
        sizeBytes: bytes.length,
      })
    }
    const mov = await uploadAsset(t, mp4({ durationSec: 3, width: 640, height: 480, brand: 'qt  ' }), 'video/quicktime')
    expect(mov).toMatchObject({ mimeType: 'video/quicktime', durationSec: 3 })
  })

  it('refuses each false claim, naming it, with 422 invalid_option', async () => {
    const t = await createTestApp()
    const bytes = await photo()
    const ticket = await upload(t, bytes, 'image/jpeg')
    const res = await t.call('POST', '/v1/media', {
      body: {
        type: 'VIDEO',
        storageKey: ticket.storageKey,
        url: ticket.url,
        mimeType: 'image/png',
        width: 4000,
        height: 48,
        sizeBytes: 10,
      },
    })
    expect(res.status).toBe(422)
    const { error } = await res.json()
    expect(error.code).toBe('invalid_option')
    expect(error.details.map((d: { path: string }) => d.path)).toEqual(['type', 'mimeType', 'sizeBytes', 'width'])
    const video = await upload(t, mp4({ durationSec: 30, width: 10, height: 10 }), 'video/mp4', 'clip.mp4')
    const short = await t.call('POST', '/v1/media', {
      body: { type: 'VIDEO', storageKey: video.storageKey, url: video.url, durationSec: 5 },
    })
    expect((await short.json()).error.details).toEqual([expect.objectContaining({ path: 'durationSec', found: 30 })])
    expect(
      (await t.call('GET', '/v1/media')).status === 200 && (await (await t.call('GET', '/v1/media')).json()),
    ).toEqual([])
  })

  it('decides the type from the bytes: a PNG uploaded as image/jpeg is refused', async () => {
    const t = await createTestApp()
    const ticket = await upload(t, await png(paint(4, 4, () => [1, 2, 3])), 'image/jpeg')
    const res = await t.call('POST', '/v1/media', {
      body: { type: 'IMAGE', storageKey: ticket.storageKey, url: ticket.url },
    })
    expect(res.status).toBe(422)
    expect((await res.json()).error).toMatchObject({ code: 'invalid_option', details: [{ path: 'storageKey' }] })
  })

  it('refuses bytes that are no supported media with 422 media_not_supported', async () => {
    const t = await createTestApp()
    const ticket = await upload(t, new TextEncoder().encode('%PDF-1.7 not an image at all'), 'image/jpeg')
    const res = await t.call('POST', '/v1/media', {
      body: { type: 'IMAGE', storageKey: ticket.storageKey, url: ticket.url },
    })
    expect(res.status).toBe(422)
    expect((await res.json()).error.code).toBe('media_not_supported')
  })

  it("answers 422 media_not_found for a key nothing was uploaded to, and the same for another workspace's key", async () => {
    const t = await createTestApp()
    const other = await createTestApp()
    const never = await (
      await t.call('POST', '/v1/media/uploads', { body: { filename: 'a.jpg', contentType: 'image/jpeg' } })
    ).json()
    const missing = await t.call('POST', '/v1/media', {
      body: { type: 'IMAGE', storageKey: never.storageKey, url: never.url },
    })
    expect(missing.status).toBe(422)
    expect((await missing.json()).error).toMatchObject({ code: 'media_not_found', details: [{ path: 'storageKey' }] })

    const theirs = await upload(other, await photo(), 'image/jpeg')
    const foreign = await t.call('POST', '/v1/media', {
      body: { type: 'IMAGE', storageKey: theirs.storageKey, url: theirs.url },
    })
    expect(foreign.status).toBe(422)
    const foreignBody = await foreign.json()
    expect(foreignBody.error.code).toBe('media_not_found')
    expect(foreignBody.error.message).toBe(
      (
        await (
          await t.call('POST', '/v1/media', { body: { type: 'IMAGE', storageKey: never.storageKey, url: never.url } })
        ).json()
      ).error.message,
    )
    const traversal = await t.call('POST', '/v1/media', {
      body: { type: 'IMAGE', storageKey: `${t.workspaceId}/../${theirs.storageKey}`, url: theirs.url },
    })
    expect((await traversal.json()).error.code).toBe('media_not_found')
    // Their asset is 404 for us.
    const registered = await other.call('POST', '/v1/media', {
      body: { type: 'IMAGE', storageKey: theirs.storageKey, url: theirs.url },
    })
    const theirAsset = await registered.json()
    expect((await t.call('GET', `/v1/media/${theirAsset.id}`)).status).toBe(404)
  })

  it("refuses a url that is not the object's own (the service never fetches a caller's URL)", async () => {
    const t = await createTestApp()
    const ticket = await upload(t, await photo(), 'image/jpeg')
    for (const url of [
      'https://attacker.example/x.jpg',
      `${ticket.url}?v=2`,
      'http://169.254.169.254/latest/meta-data',
    ]) {
      const res = await t.call('POST', '/v1/media', { body: { type: 'IMAGE', storageKey: ticket.storageKey, url } })
      expect(res.status).toBe(422)
      expect((await res.json()).error).toMatchObject({ code: 'invalid_option', details: [{ path: 'url' }] })
    }
  })

  it('refuses an unknown folderId', async () => {
    const t = await createTestApp()
    const ticket = await upload(t, await photo(), 'image/jpeg')
    const res = await t.call('POST', '/v1/media', {
      body: { type: 'IMAGE', storageKey: ticket.storageKey, url: ticket.url, folderId: 'fld_nope' },
    })
    expect(res.status).toBe(422)
    expect((await res.json()).error.details).toEqual([{ path: 'folderId', message: 'unknown folder' }])
  })
})

describe('GET /v1/media', () => {
  it('lists the library newest first, and one folder with folderId', async () => {
    const t = await createTestApp()
    const other = await createTestApp()
    const a = await uploadAsset(t, await photo(), 'image/jpeg', { folder: 'A' })
    const b = await uploadAsset(t, await photo(), 'image/jpeg', { folder: 'B' })
    const c = await uploadAsset(t, await photo(), 'image/jpeg', { folderId: a.folderId })
    await uploadAsset(other, await photo(), 'image/jpeg', { folder: 'A' })
    const all = await (await t.call('GET', '/v1/media')).json()
    expect(all.map((x: { id: string }) => x.id)).toEqual([c.id, b.id, a.id])
    const inA = await (await t.call('GET', `/v1/media?folderId=${a.folderId}`)).json()
    expect(inA.map((x: { id: string }) => x.id)).toEqual([c.id, a.id])
    expect(await (await t.call('GET', '/v1/media?folderId=fld_unknown')).json()).toEqual([])
  })
})
