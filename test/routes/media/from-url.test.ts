/**
 * POST /v1/media with `sourceUrl` (src/services/media/from-url.ts): the service fetches the file
 * from a real loopback HTTP server, streams it into the test's object store and registers it like
 * an upload. Refusals: the outbound guard (loopback without ALLOW_PRIVATE_URLS, a redirect to a
 * private address, after DNS), schemes, statuses, the size cap while streaming, HTML, a timeout.
 */
import { createHash } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { ResolveHost } from '../../../src/networks/outbound'
import { endless, file, redirect, startSource } from '../../support/file-server'
import { jpeg, paint, png } from '../../support/media'
import { storedKeys } from '../../support/storage'
import { createTestApp, type TestAppOptions } from '../../support/test-app'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

const photo = () => jpeg(paint(64, 48, (x, y) => [x * 4, y * 5, 128]))

/** The test app, with the fetch's limits lowered where a test needs it. */
const app = (options: TestAppOptions & { limits?: { timeoutMs?: number; maxSizeBytes?: number } } = {}) =>
  createTestApp({
    ...options,
    parts: (p) => ({ ...p, settings: { ...p.settings, mediaFromUrl: options.limits ?? {} } }),
  })

/** Keys the store holds under the workspace. */
const storedKeysOf = (workspaceId: string) => storedKeys(`${workspaceId}/`)

describe('POST /v1/media with sourceUrl', () => {
  it('fetches a JPEG and registers it like an upload: type, size, dimensions from the bytes, bytes in the store', async () => {
    const bytes = await photo()
    const source = await startSource({ '/photos/Beach%20Day.jpeg': file(bytes, 'image/jpeg') })
    const t = await app()
    const res = await t.call('POST', '/v1/media', {
      body: { sourceUrl: `${source.url}/photos/Beach%20Day.jpeg`, altText: 'A beach', folder: 'Imported' },
    })
    expect(res.status).toBe(200)
    const asset = await res.json()
    expect(asset).toMatchObject({
      type: 'IMAGE',
      mimeType: 'image/jpeg',
      width: 64,
      height: 48,
      sizeBytes: bytes.byteLength,
      durationSec: null,
      altText: 'A beach',
      sourceId: null,
    })
    expect(asset.folderId).toMatch(/^fld_/)
    expect(asset.storageKey).toMatch(new RegExp(`^${t.workspaceId}/\\d{4}/\\d{2}/[0-9A-Za-z]{12}-beach-day\\.jpg$`))
    expect(asset.url).toBe(t.deps.storage.publicUrl(asset.storageKey))
    expect(await t.deps.storage.get(asset.storageKey)).toEqual(bytes)
    expect((await t.deps.storage.head(asset.storageKey))?.contentType).toBe('image/jpeg')
    expect(await storedKeysOf(t.workspaceId)).toEqual([asset.storageKey])
    const listed = await (await t.call('GET', '/v1/media')).json()
    expect(listed.map((a: { id: string }) => a.id)).toEqual([asset.id])
    // Variants work on it as on any uploaded image.
    const variants = await t.call('POST', `/v1/media/${asset.id}/variants`, { body: { formats: ['feed_square'] } })
    expect(variants.status).toBe(200)
  })

  it('streams a file larger than one storage part into a multipart upload, byte for byte', async () => {
    const head = await photo()
    // A JPEG followed by 9 MiB of trailing bytes: more than one 8 MiB part.
    const bytes = new Uint8Array(head.byteLength + 9 * 1024 * 1024)
    bytes.set(head)
    for (let i = head.byteLength; i < bytes.length; i++) bytes[i] = i % 251
    const source = await startSource({ '/big.jpg': file(bytes, 'image/jpeg') })
    const t = await app()
    const res = await t.call('POST', '/v1/media', { body: { sourceUrl: `${source.url}/big.jpg` } })
    expect(res.status).toBe(200)
    const asset = await res.json()
    expect(asset).toMatchObject({ mimeType: 'image/jpeg', width: 64, height: 48, sizeBytes: bytes.byteLength })
    const stored = await t.deps.storage.get(asset.storageKey)
    // Compared as digests: a deep comparison of 9 MiB element by element takes a minute.
    expect(stored && (await sha256(stored))).toBe(await sha256(bytes))
  })

  it('decides the type from the bytes whatever the server calls them, and follows a redirect chain', async () => {
    const bytes = await png(paint(10, 20, () => [0, 128, 255]))
    const source = await startSource({
      '/start': redirect('/hop'),
      '/hop': redirect('/final.bin', 301),
      '/final.bin': file(bytes, 'application/octet-stream'),
    })
    const t = await app()
    const res = await t.call('POST', '/v1/media', { body: { sourceUrl: `${source.url}/start`, type: 'IMAGE' } })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ mimeType: 'image/png', width: 10, height: 20, sizeBytes: bytes.length })
    expect(source.requests).toEqual(['/start', '/hop', '/final.bin'])
  })

  it('refuses a type claim the bytes contradict, and an unknown folder, with 422 invalid_option, storing nothing', async () => {
    const source = await startSource({ '/a.jpg': file(await photo(), 'image/jpeg') })
    const t = await app()
    const res = await t.call('POST', '/v1/media', { body: { sourceUrl: `${source.url}/a.jpg`, type: 'VIDEO' } })
    expect(res.status).toBe(422)
    const { error } = await res.json()
    expect(error).toMatchObject({
      code: 'invalid_option',
      details: [{ path: 'type', claimed: 'VIDEO', found: 'IMAGE' }],
    })
    expect(error.message).toContain('image/jpeg')
    expect(await storedKeysOf(t.workspaceId)).toEqual([])
    // An unknown folder is refused before the address is even asked.
    const folder = await t.call('POST', '/v1/media', { body: { sourceUrl: `${source.url}/a.jpg`, folderId: 'fld_x' } })
    expect(folder.status).toBe(422)
    expect((await folder.json()).error).toMatchObject({ code: 'invalid_option', details: [{ path: 'folderId' }] })
    expect(source.requests).toEqual(['/a.jpg'])
  })

  it('refuses a loopback address without ALLOW_PRIVATE_URLS and never calls it', async () => {
    const source = await startSource({ '/a.jpg': file(await photo(), 'image/jpeg') })
    const t = await app({ allowPrivateUrls: false })
    const plain = await t.call('POST', '/v1/media', { body: { sourceUrl: `${source.url}/a.jpg` } })
    expect(plain.status).toBe(400)
    expect((await plain.json()).error).toMatchObject({
      code: 'invalid_request',
      message: 'sourceUrl must be a public https address.',
      details: [{ path: 'sourceUrl', reason: 'refused' }],
    })
    const secure = await t.call('POST', '/v1/media', {
      body: { sourceUrl: source.url.replace('http://', 'https://') },
    })
    expect(secure.status).toBe(400)
    expect((await secure.json()).error.message).toBe(
      'sourceUrl must be a public https address (127.0.0.1 is a loopback address).',
    )
    const metadata = await t.call('POST', '/v1/media', { body: { sourceUrl: 'https://169.254.169.254/latest' } })
    expect((await metadata.json()).error.details[0]).toMatchObject({ path: 'sourceUrl', reason: 'refused' })
    expect(source.requests).toEqual([])
  })

  it('refuses a redirect to a private address, and a name resolving to one, without naming the resolved address', async () => {
    const inside = await startSource({ '/latest/meta-data/': file(await photo(), 'image/jpeg') })
    const outside = await startSource({
      '/photo.jpg': redirect(`${inside.url}/latest/meta-data/`),
      '/loop': redirect('/loop'),
    })
    const resolver: ResolveHost = async (host) => {
      if (host === 'public.example') return ['93.184.216.34']
      if (host === 'evil.example') return ['10.1.2.3']
      throw new Error(`ENOTFOUND ${host}`)
    }
    // public.example passes the guard (a public address); this fetch carries it to the loopback server.
    const toOutside: typeof fetch = (input, init) => {
      const url = new URL(String(input))
      return url.hostname === 'public.example' ? fetch(`${outside.url}${url.pathname}`, init) : fetch(input, init)
    }
    const t = await app({ allowPrivateUrls: false, resolveHost: resolver, fetch: toOutside })
    const redirected = await t.call('POST', '/v1/media', { body: { sourceUrl: 'https://public.example/photo.jpg' } })
    expect(redirected.status).toBe(400)
    const { error } = await redirected.json()
    expect(error).toMatchObject({ code: 'invalid_request', details: [{ path: 'sourceUrl', reason: 'refused' }] })
    expect(error.message).toMatch(/redirected to, is not a public https address/)
    expect(outside.requests).toEqual(['/photo.jpg'])
    expect(inside.requests).toEqual([])

    const loop = await t.call('POST', '/v1/media', { body: { sourceUrl: 'https://public.example/loop' } })
    expect((await loop.json()).error).toMatchObject({
      message: 'sourceUrl redirected more than 5 times.',
      details: [{ path: 'sourceUrl', reason: 'refused' }],
    })
    expect(outside.requests.filter((p) => p === '/loop')).toHaveLength(6)

    const resolved = await t.call('POST', '/v1/media', { body: { sourceUrl: 'https://evil.example/x.jpg' } })
    expect(resolved.status).toBe(400)
    const text = await resolved.text()
    expect(text).toContain('"reason":"refused"')
    expect(text).not.toContain('10.1.2.3')
    expect(await storedKeysOf(t.workspaceId)).toEqual([])
  })

  it.each([
    ['ftp://127.0.0.1/a.jpg', true, 'sourceUrl must be an http or https address.'],
    ['ftp://example.com/a.jpg', false, 'sourceUrl must be a public https address.'],
    ['file:///etc/passwd', true, 'sourceUrl must be an http or https address.'],
    ['not a url', true, 'sourceUrl must be a URL.'],
  ])('refuses %s (private URLs allowed: %s)', async (sourceUrl, allowPrivateUrls, message) => {
    const t = await app({ allowPrivateUrls })
    const res = await t.call('POST', '/v1/media', { body: { sourceUrl } })
    expect(res.status).toBe(400)
    expect((await res.json()).error).toMatchObject({
      code: 'invalid_request',
      message,
      details: [{ path: 'sourceUrl', reason: 'refused' }],
    })
  })

  it('says the status of an answer that is not 2xx, and when nothing answers', async () => {
    const source = await startSource({})
    const t = await app()
    const res = await t.call('POST', '/v1/media', { body: { sourceUrl: `${source.url}/missing.jpg` } })
    expect(res.status).toBe(400)
    expect((await res.json()).error).toMatchObject({
      code: 'invalid_request',
      message: 'sourceUrl answered HTTP 404; it must answer 200 with the file.',
      details: [{ path: 'sourceUrl', reason: 'status', status: 404 }],
    })
    // A port nobody listens on (the server is closed first).
    const gone = createServer()
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve))
    const port = (gone.address() as AddressInfo).port
    await new Promise((resolve) => gone.close(resolve))
    const down = await t.call('POST', '/v1/media', { body: { sourceUrl: `http://127.0.0.1:${port}/a.jpg` } })
    expect(down.status).toBe(400)
    expect((await down.json()).error).toMatchObject({ details: [{ path: 'sourceUrl', reason: 'unreachable' }] })
  })

  it('stops reading a body over the cap while it streams, and stores nothing', async () => {
    const cap = 64 * 1024
    const total = 32 * 1024 * 1024
    const source = await startSource({ '/huge.jpg': endless(total) })
    const t = await app({ limits: { maxSizeBytes: cap } })
    const res = await t.call('POST', '/v1/media', { body: { sourceUrl: `${source.url}/huge.jpg` } })
    expect(res.status).toBe(422)
    expect((await res.json()).error).toMatchObject({
      code: 'media_not_supported',
      details: [{ path: 'sourceUrl', limit: cap }],
    })
    await expect.poll(() => source.stream.closedEarly).toBe(true)
    // Socket buffers hold a few MiB at most: far from the whole body.
    expect(source.stream.written).toBeLessThan(total / 2)
    expect(await storedKeysOf(t.workspaceId)).toEqual([])
    expect(await (await t.call('GET', '/v1/media')).json()).toEqual([])

    // A length declared over the cap is refused before the body is read.
    const declared = await startSource({
      '/big.jpg': (_req, res) => res.writeHead(200, { 'content-length': String(cap + 1) }).end(),
    })
    const early = await t.call('POST', '/v1/media', { body: { sourceUrl: `${declared.url}/big.jpg` } })
    expect((await early.json()).error).toMatchObject({
      code: 'media_not_supported',
      details: [{ path: 'sourceUrl', limit: cap, actual: cap + 1 }],
    })
  })

  it('refuses an HTML page and an empty answer with 422 media_not_supported', async () => {
    const html = new TextEncoder().encode('<!DOCTYPE html><html><body>Sign in to see this photo</body></html>')
    const source = await startSource({
      '/photo.jpg': file(html, 'image/jpeg'),
      '/empty.jpg': file(new Uint8Array(0), 'image/jpeg'),
    })
    const t = await app()
    const page = await t.call('POST', '/v1/media', { body: { sourceUrl: `${source.url}/photo.jpg` } })
    expect(page.status).toBe(422)
    const { error } = await page.json()
    expect(error).toMatchObject({ code: 'media_not_supported', details: [{ path: 'sourceUrl' }] })
    expect(error.message).toMatch(/is an HTML page, which is not an image or video the service accepts/)
    const empty = await t.call('POST', '/v1/media', { body: { sourceUrl: `${source.url}/empty.jpg` } })
    expect((await empty.json()).error).toMatchObject({
      code: 'media_not_supported',
      message: 'The file at sourceUrl is empty.',
    })
    expect(await storedKeysOf(t.workspaceId)).toEqual([])
  })

  it('gives up on a server that never answers after the timeout', async () => {
    const source = await startSource({ '/slow.jpg': () => {} })
    const t = await app({ limits: { timeoutMs: 300 } })
    const started = Date.now()
    const res = await t.call('POST', '/v1/media', { body: { sourceUrl: `${source.url}/slow.jpg` } })
    expect(Date.now() - started).toBeLessThan(5000)
    expect(res.status).toBe(400)
    expect((await res.json()).error).toMatchObject({
      code: 'invalid_request',
      message: 'sourceUrl did not send the whole file within 0.3 s.',
      details: [{ path: 'sourceUrl', reason: 'timeout' }],
    })
  })

  it('replays the answer for the same Idempotency-Key without fetching again', async () => {
    const source = await startSource({ '/a.jpg': file(await photo(), 'image/jpeg') })
    const t = await app()
    const body = { sourceUrl: `${source.url}/a.jpg` }
    const headers = { 'idempotency-key': 'from-url-1' }
    const first = await t.call('POST', '/v1/media', { body, headers })
    const again = await t.call('POST', '/v1/media', { body, headers })
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toEqual(await first.json())
    expect(source.requests).toEqual(['/a.jpg'])
  })

  it('names what is missing when the body is neither shape, and documents both', async () => {
    const t = await app()
    const res = await t.call('POST', '/v1/media', { body: { sourceUrl: 42 } })
    expect(res.status).toBe(400)
    expect((await res.json()).error.details).toEqual([{ path: 'sourceUrl', message: expect.any(String) }])
    const doc = await (await t.call('GET', '/v1/openapi.json')).json()
    const schema = doc.paths['/v1/media'].post.requestBody.content['application/json'].schema
    expect(schema.anyOf.map((s: { $ref: string }) => s.$ref)).toEqual([
      '#/components/schemas/RegisterMedia',
      '#/components/schemas/RegisterMediaFromUrl',
    ])
  })
})
