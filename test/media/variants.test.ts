import { describe, expect, it } from 'vitest'
import { estimateDecodeBytes } from '../../src/media/jpeg-decode'
import { VARIANT_LIMITS } from '../../src/media/variants'
import { createTestApp } from '../support/test-app'
import { decodeJpeg, jpeg, mp4, paint, pixel, png, uploadAsset, type Rgba } from '../support/media'

const CANVASES = {
  feed_portrait: [1080, 1350],
  feed_square: [1080, 1080],
  landscape: [1080, 566],
  story: [1080, 1920],
} as const
const SKIN: [number, number, number] = [226, 170, 136]
const isSkin = ([r, g, b]: number[]) =>
  Math.abs(r! - SKIN[0]) < 30 && Math.abs(g! - SKIN[1]) < 30 && Math.abs(b! - SKIN[2]) < 30
const near = (actual: number[], expected: number[], tolerance = 12) =>
  actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance)
const fetchJpeg = async (url: string) => decodeJpeg(new Uint8Array(await (await fetch(url)).arrayBuffer()))
const share = (image: Rgba, test: (rgb: number[]) => boolean) => {
  let n = 0
  for (let y = 0; y < image.height; y += 4) for (let x = 0; x < image.width; x += 4) if (test(pixel(image, x, y))) n++
  return n / (Math.ceil(image.width / 4) * Math.ceil(image.height / 4))
}

/** A wide scene: a dull, slightly textured background and a face-like skin-tone subject near the left edge. */
function offCentreSubject(): Rgba {
  return paint(1600, 900, (x, y) => {
    const dx = (x - 190) / 120
    const dy = (y - 450) / 160
    if (dx * dx + dy * dy <= 1) {
      const eye = (Math.abs(x - 150) < 12 || Math.abs(x - 230) < 12) && Math.abs(y - 410) < 8
      return eye ? [40, 30, 30] : SKIN
    }
    const t = ((x * 7 + y * 13) % 17) - 8
    return [70 + t, 90 + t, 110 + t]
  })
}

/** A JPEG with an EXIF APP1 segment holding only the Orientation tag. */
function withOrientation(bytes: Uint8Array, orientation: number): Uint8Array {
  const tiff = [
    0x49,
    0x49,
    0x2a,
    0x00,
    8,
    0,
    0,
    0,
    1,
    0,
    0x12,
    0x01,
    3,
    0,
    1,
    0,
    0,
    0,
    orientation,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  ]
  const body = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff]
  const app1 = [0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 255, ...body]
  return new Uint8Array([0xff, 0xd8, ...app1, ...bytes.subarray(2)])
}

describe('POST /v1/media/{id}/variants', () => {
  it('makes the four canvases at their exact sizes as new assets that inherit alt text and folder', async () => {
    const t = await createTestApp()
    const source = await uploadAsset(t, await jpeg(offCentreSubject()), 'image/jpeg', {
      altText: 'Portrait of Ada',
      folder: 'Launch',
    })
    const res = await t.call('POST', `/v1/media/${source.id}/variants`, {
      body: { formats: ['feed_portrait', 'feed_square', 'landscape', 'story'] },
    })
    const body = await res.json()
    expect(res.status, JSON.stringify(body)).toBe(200)
    expect(res.headers.get('ratelimit-limit')).toBe('30')
    expect(body.sourceId).toBe(source.id)
    expect(body.variants.map((v: { format: string }) => v.format)).toEqual([
      'feed_portrait',
      'feed_square',
      'landscape',
      'story',
    ])
    for (const v of body.variants) {
      const [w, h] = CANVASES[v.format as keyof typeof CANVASES]
      expect([v.width, v.height]).toEqual([w, h])
      const decoded = await fetchJpeg(v.url)
      expect([decoded.width, decoded.height]).toEqual([w, h])
      const asset = await (await t.call('GET', `/v1/media/${v.id}`)).json()
      expect(asset).toMatchObject({
        type: 'IMAGE',
        mimeType: 'image/jpeg',
        width: w,
        height: h,
        altText: 'Portrait of Ada',
        folderId: source.folderId,
        sourceId: source.id,
        url: v.url,
      })
      expect(asset.storageKey.startsWith(`${t.workspaceId}/`)).toBe(true)
    }
    const inFolder = await (await t.call('GET', `/v1/media?folderId=${source.folderId}`)).json()
    expect(inFolder).toHaveLength(5)
    expect(inFolder[4].id).toBe(source.id)
  })

  it('keeps an off-centre subject inside the smart crop, where the centre crop loses it', async () => {
    const t = await createTestApp()
    const source = await uploadAsset(t, await jpeg(offCentreSubject()), 'image/jpeg')
    const smart = await (
      await t.call('POST', `/v1/media/${source.id}/variants`, { body: { formats: ['story'], crop: 'smart' } })
    ).json()
    const centre = await (
      await t.call('POST', `/v1/media/${source.id}/variants`, { body: { formats: ['story'], crop: 'centre' } })
    ).json()
    expect(smart.variants[0].id).not.toBe(centre.variants[0].id)
    const smartImage = await fetchJpeg(smart.variants[0].url)
    const centreImage = await fetchJpeg(centre.variants[0].url)
    // The whole subject (an ellipse of 240x320 source pixels) in a 506x900 crop covers 13% of the frame.
    expect(share(smartImage, isSkin)).toBeGreaterThan(0.11)
    expect(share(centreImage, isSkin)).toBe(0)
  })

  it('pads with white for contain: the whole image, centred, nothing cut', async () => {
    const t = await createTestApp()
    const red = await jpeg(paint(1200, 600, () => [200, 30, 40]))
    const source = await uploadAsset(t, red, 'image/jpeg')
    const res = await (
      await t.call('POST', `/v1/media/${source.id}/variants`, {
        body: { formats: ['feed_square', 'story'], fit: 'contain' },
      })
    ).json()
    const square = await fetchJpeg(res.variants[0].url)
    expect([square.width, square.height]).toEqual([1080, 1080])
    // 1200x600 fits as 1080x540, rows 270 to 809.
    for (const y of [0, 100, 260, 820, 1079])
      expect(near(pixel(square, 540, y), [255, 255, 255]), `row ${y}`).toBe(true)
    for (const y of [280, 540, 800]) expect(near(pixel(square, 540, y), [200, 30, 40], 16), `row ${y}`).toBe(true)
    expect(near(pixel(square, 2, 540), [200, 30, 40], 16)).toBe(true)
    const story = await fetchJpeg(res.variants[1].url)
    expect(near(pixel(story, 540, 100), [255, 255, 255])).toBe(true)
    expect(near(pixel(story, 540, 960), [200, 30, 40], 16)).toBe(true)
  })

  it('returns the same variant for the same request instead of a new file, and one file per size', async () => {
    const t = await createTestApp()
    const source = await uploadAsset(t, await jpeg(paint(400, 300, (x) => [x % 256, 80, 80])), 'image/jpeg')
    const first = await (
      await t.call('POST', `/v1/media/${source.id}/variants`, { body: { formats: ['feed_square', 'landscape'] } })
    ).json()
    const again = await (
      await t.call('POST', `/v1/media/${source.id}/variants`, {
        body: { formats: ['landscape', 'feed_square', 'feed_square', 'story'] },
      })
    ).json()
    expect(again.variants.map((v: { format: string }) => v.format)).toEqual(['landscape', 'feed_square', 'story'])
    expect(again.variants[0].id).toBe(first.variants[1].id)
    expect(again.variants[1].id).toBe(first.variants[0].id)
    expect(await (await t.call('GET', '/v1/media')).json()).toHaveLength(4)
  })

  it('turns a PNG with transparency into JPEG canvases over white', async () => {
    const t = await createTestApp()
    const source = await uploadAsset(
      t,
      await png(paint(300, 300, (x) => (x < 150 ? [0, 0, 255, 255] : [0, 0, 0, 0]))),
      'image/png',
    )
    const res = await (
      await t.call('POST', `/v1/media/${source.id}/variants`, { body: { formats: ['feed_square'], crop: 'centre' } })
    ).json()
    const square = await fetchJpeg(res.variants[0].url)
    expect(near(pixel(square, 200, 540), [0, 0, 255], 20)).toBe(true)
    expect(near(pixel(square, 900, 540), [255, 255, 255])).toBe(true)
  })

  it('honours EXIF orientation: a photo stored sideways is cut upright', async () => {
    const t = await createTestApp()
    // Stored 200x100, left half red, right half blue; orientation 6 displays it rotated 90° clockwise.
    const stored = await jpeg(paint(200, 100, (x) => (x < 100 ? [220, 20, 20] : [20, 20, 220])))
    const source = await uploadAsset(t, withOrientation(stored, 6), 'image/jpeg', { width: 100, height: 200 })
    expect([source.width, source.height]).toEqual([100, 200])
    const res = await (
      await t.call('POST', `/v1/media/${source.id}/variants`, { body: { formats: ['feed_square'], fit: 'contain' } })
    ).json()
    const square = await fetchJpeg(res.variants[0].url)
    expect(near(pixel(square, 540, 200), [220, 20, 20], 20)).toBe(true)
    expect(near(pixel(square, 540, 880), [20, 20, 220], 20)).toBe(true)
    expect(near(pixel(square, 100, 540), [255, 255, 255])).toBe(true)
  })

  it("refuses a video with 422 media_not_supported, another workspace's asset with 404, and unknown formats with 400", async () => {
    const t = await createTestApp()
    const other = await createTestApp()
    const video = await uploadAsset(t, mp4({ durationSec: 2, width: 640, height: 360 }), 'video/mp4')
    const refused = await t.call('POST', `/v1/media/${video.id}/variants`, { body: { formats: ['story'] } })
    expect(refused.status).toBe(422)
    expect((await refused.json()).error.code).toBe('media_not_supported')
    const theirs = await uploadAsset(other, await jpeg(paint(40, 40, () => [1, 2, 3])), 'image/jpeg')
    const foreign = await t.call('POST', `/v1/media/${theirs.id}/variants`, { body: { formats: ['story'] } })
    expect(foreign.status).toBe(404)
    expect((await foreign.json()).error.code).toBe('not_found')
    expect((await t.call('POST', `/v1/media/${theirs.id}/variants`, { body: { formats: ['banner'] } })).status).toBe(
      400,
    )
    expect((await t.call('POST', '/v1/media/med_missing/variants', { body: { formats: ['story'] } })).status).toBe(404)
  })

  it('refuses, before decoding, a JPEG whose decode would not fit the memory budget', () => {
    const twelveMp = { width: 4000, height: 3000 }
    const at = (progressive: boolean, sampleFactor: number) =>
      estimateDecodeBytes({ ...twelveMp, progressive, sampleFactor }, 5_000_000, 6)
    expect(at(false, 1.5)).toBeLessThan(VARIANT_LIMITS.jpegDecodeBudgetBytes)
    expect(at(true, 1.5)).toBeLessThan(VARIANT_LIMITS.jpegDecodeBudgetBytes)
    expect(at(true, 3)).toBeGreaterThan(VARIANT_LIMITS.jpegDecodeBudgetBytes)
  })
})
