import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { SignatureV4 } from '@smithy/signature-v4'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { LOCAL_S3_ACCESS_KEY_ID, startLocalS3, type LocalS3 } from '../../src/infra/storage/local-s3'
import { createS3Storage } from '../../src/infra/storage/s3'
import { createTestApp } from '../support/test-app'
import { jpeg, paint, uploadAsset } from '../support/media'

const photo = () => jpeg(paint(64, 48, (x, y) => [x * 4, y * 5, 128]))
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer())
const HTML = '<html><body>defaced</body></html>'

/** Through the app: the store the test app uploads to (test/support/storage.ts). */
describe('local store: writes to a registered asset', () => {
  it('refuses an unsigned PUT and DELETE with 403 AccessDenied; the object and the asset stay', async () => {
    const t = await createTestApp()
    const bytes = await photo()
    const asset = await uploadAsset(t, bytes, 'image/jpeg')

    const put = await fetch(asset.url, { method: 'PUT', headers: { 'Content-Type': 'text/html' }, body: HTML })
    expect(put.status).toBe(403)
    expect(put.headers.get('content-type')).toBe('application/xml')
    expect(await put.text()).toContain('<Code>AccessDenied</Code>')

    const del = await fetch(asset.url, { method: 'DELETE' })
    expect(del.status).toBe(403)
    expect(await del.text()).toContain('<Code>AccessDenied</Code>')

    const served = await fetch(asset.url)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/jpeg')
    expect(await bytesOf(served)).toEqual(bytes)
    expect((await t.call('GET', `/v1/media/${asset.id}`)).status).toBe(200)
  })

  it('refuses a presigned PUT sent with another content type or length than signed; nothing is written', async () => {
    const t = await createTestApp()
    const bytes = await photo()
    const ticket = await (
      await t.call('POST', '/v1/media/uploads', {
        body: { filename: 'a.jpg', contentType: 'image/jpeg', sizeBytes: bytes.length },
      })
    ).json()
    const html = await fetch(ticket.uploadUrl, {
      method: 'PUT',
      headers: { 'Content-Type': 'text/html', 'Content-Length': String(bytes.length) },
      body: new Blob([bytes.slice()]),
    })
    expect(html.status).toBe(403)
    expect(await html.text()).toContain('<Code>SignatureDoesNotMatch</Code>')
    // The signed type, but a longer body (fetch sends its real length).
    const longer = await fetch(ticket.uploadUrl, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/jpeg' },
      body: new Blob([bytes.slice(), new Uint8Array(10)]),
    })
    expect(longer.status).toBe(403)
    expect((await fetch(ticket.url, { method: 'HEAD' })).status).toBe(404)
    // The URL itself is good: as signed, it uploads.
    const ok = await fetch(ticket.uploadUrl, {
      method: 'PUT',
      headers: ticket.headers,
      body: new Blob([bytes.slice()]),
    })
    expect(ok.status, await ok.clone().text()).toBe(200)
    expect(await bytesOf(await fetch(ticket.url))).toEqual(bytes)
  })

  it("keeps the service's own writes working: variants are written and served", async () => {
    const t = await createTestApp()
    const source = await uploadAsset(t, await jpeg(paint(400, 300, (x, y) => [x % 256, y % 256, 90])), 'image/jpeg')
    const res = await t.call('POST', `/v1/media/${source.id}/variants`, { body: { formats: ['feed_square'] } })
    const body = await res.json()
    expect(res.status, JSON.stringify(body)).toBe(200)
    const served = await fetch(body.variants[0].url)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/jpeg')
  })
})

/** A store of this file's own, with a known secret, spoken to directly. */
describe('local store: signature checks', () => {
  const secret = 'local-store-test-secret'
  const bucket = 'sig-test'
  let local: LocalS3
  let dir: string
  const storageWith = (secretAccessKey: string) =>
    createS3Storage({
      endpoint: local.endpoint,
      region: 'us-east-1',
      bucket,
      accessKeyId: LOCAL_S3_ACCESS_KEY_ID,
      secretAccessKey,
      publicBaseUrl: `${local.endpoint}/${bucket}`,
    })
  const original = new TextEncoder().encode('original bytes')

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sps-store-'))
    local = await startLocalS3({ directory: dir, bucket, secretAccessKey: secret })
    await storageWith(secret).put('k/original.bin', original, 'application/octet-stream')
  })
  afterAll(async () => {
    await local.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const unchanged = async () => {
    const res = await fetch(`${local.endpoint}/${bucket}/k/original.bin`)
    expect(res.status).toBe(200)
    expect(await bytesOf(res)).toEqual(original)
  }

  it('serves reads to anyone and answers CORS preflights', async () => {
    await unchanged()
    expect((await fetch(`${local.endpoint}/${bucket}/k/original.bin`, { method: 'HEAD' })).status).toBe(200)
    const preflight = await fetch(`${local.endpoint}/${bucket}/k/x.jpg`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'PUT' },
    })
    expect(preflight.status).toBe(200)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('accepts header-signed writes and deletes made with the secret (the S3 client)', async () => {
    const storage = storageWith(secret)
    await storage.put('k/new.txt', new TextEncoder().encode('hello'), 'text/plain')
    expect(await storage.head('k/new.txt')).toEqual({ sizeBytes: 5, contentType: 'text/plain' })
    await storage.delete('k/new.txt')
    expect(await storage.head('k/new.txt')).toBeNull()
  })

  it('refuses writes and deletes signed with another secret (s3rver’s well-known one too)', async () => {
    for (const wrong of ['S3RVER', 'not-the-secret']) {
      const storage = storageWith(wrong)
      await expect(storage.put('k/original.bin', new TextEncoder().encode(HTML), 'text/html')).rejects.toMatchObject({
        name: 'SignatureDoesNotMatch',
        $metadata: { httpStatusCode: 403 },
      })
      await expect(storage.delete('k/original.bin')).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } })
      const presigned = await storage.presignPut({ key: 'k/original.bin', contentType: 'text/html', expiresInSec: 60 })
      const put = await fetch(presigned.url, { method: 'PUT', headers: presigned.headers, body: HTML })
      expect(put.status).toBe(403)
      expect(await put.text()).toContain('<Code>SignatureDoesNotMatch</Code>')
    }
    await unchanged()
  })

  it('refuses unsigned bucket operations, multipart and batch deletes', async () => {
    const base = `${local.endpoint}/${bucket}`
    const attempts: [string, string, string?][] = [
      ['PUT', `${local.endpoint}/another-bucket`],
      ['DELETE', base],
      ['PUT', `${base}?cors`, '<CORSConfiguration/>'],
      ['POST', `${base}/k/original.bin?uploads`],
      ['POST', `${base}?delete`, '<Delete><Object><Key>k/original.bin</Key></Object></Delete>'],
      ['POST', base, 'form upload'],
      ['PATCH', `${base}/k/original.bin`, HTML],
    ]
    for (const [method, url, body] of attempts) {
      const res = await fetch(url, { method, ...(body ? { body } : {}) })
      expect(res.status, `${method} ${url}`).toBe(403)
      expect(await res.text()).toContain('<Code>AccessDenied</Code>')
    }
    await unchanged()
  })

  it('lists nothing to anyone (403 AccessDenied), as a public bucket; objects stay readable by key, signed listings work', async () => {
    const base = `${local.endpoint}/${bucket}`
    const listings = [
      `${local.endpoint}/`,
      base,
      `${base}/`,
      `${base}?list-type=2`,
      `${base}?list-type=2&prefix=k/`,
      `${base}?uploads`,
      `${base}?cors`,
      `${local.endpoint}/another-bucket`,
      `${base}//`,
    ]
    for (const url of listings) {
      for (const method of ['GET', 'HEAD']) {
        const res = await fetch(url, { method })
        expect(res.status, `${method} ${url}`).toBe(403)
        if (method === 'GET') {
          const text = await res.text()
          expect(text).toContain('<Code>AccessDenied</Code>')
          expect(text).not.toContain('original.bin')
        }
      }
    }
    // s3rver takes a bucket name from the Host header: the same listing asked that way is refused too.
    const byHost = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(local.endpoint)
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: '/?list-type=2', headers: { host: bucket } },
        (res) => {
          let body = ''
          res.on('data', (c) => (body += c))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
        },
      )
      req.on('error', reject)
      req.end()
    })
    expect(byHost.status).toBe(403)
    expect(byHost.body).not.toContain('original.bin')

    await unchanged()
    // A query after an object's key changes nothing: the object, never another operation on it.
    const withQuery = await fetch(`${base}/k/original.bin?acl`)
    expect(withQuery.status).toBe(200)
    expect(await bytesOf(withQuery)).toEqual(original)

    const client = new S3Client({
      endpoint: local.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: LOCAL_S3_ACCESS_KEY_ID, secretAccessKey: secret },
    })
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'k/' }))
    expect(listed.Contents?.map((o) => o.Key)).toContain('k/original.bin')
    const wrong = new S3Client({
      endpoint: local.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: LOCAL_S3_ACCESS_KEY_ID, secretAccessKey: 'not-the-secret' },
    })
    await expect(wrong.send(new ListObjectsV2Command({ Bucket: bucket }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 403 },
    })
  })

  it('refuses a presigned URL after its expiry, and one whose expiry was extended', async () => {
    const storage = storageWith(secret)
    const presigned = await storage.presignPut({ key: 'k/late.txt', contentType: 'text/plain', expiresInSec: 1 })
    const extended = new URL(presigned.url)
    extended.searchParams.set('X-Amz-Expires', '3600')
    // The store runs in this process: its clock (Date) moves 2.1 s on, past the expiry, without waiting.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + 2_100)
      const late = await fetch(presigned.url, { method: 'PUT', headers: presigned.headers, body: 'late' })
      expect(late.status).toBe(403)
      expect(await late.text()).toContain('Request has expired')
      const forged = await fetch(extended, { method: 'PUT', headers: presigned.headers, body: 'late' })
      expect(forged.status).toBe(403)
      expect(await forged.text()).toContain('<Code>SignatureDoesNotMatch</Code>')
    } finally {
      vi.useRealTimers()
    }
    expect(await storage.head('k/late.txt')).toBeNull()
  })

  it('refuses a header-signed PUT whose body is not the one hashed into the signature', async () => {
    const url = new URL(`${local.endpoint}/${bucket}/k/original.bin`)
    const signer = new SignatureV4({
      credentials: { accessKeyId: LOCAL_S3_ACCESS_KEY_ID, secretAccessKey: secret },
      region: 'us-east-1',
      service: 's3',
      sha256: class {
        private readonly h: Hash | Hmac
        constructor(key?: Uint8Array | string) {
          this.h = key === undefined ? createHash('sha256') : createHmac('sha256', key)
        }
        update(d: Uint8Array | string) {
          this.h.update(d)
        }
        digest() {
          return Promise.resolve(new Uint8Array(this.h.digest()))
        }
      } as never,
      uriEscapePath: false,
    })
    const signed = await signer.sign({
      method: 'PUT',
      protocol: 'http:',
      hostname: url.hostname,
      path: url.pathname,
      query: {},
      headers: {
        host: url.host,
        'content-type': 'text/plain',
        'x-amz-content-sha256': createHash('sha256').update('what was signed').digest('hex'),
      },
    })
    const res = await fetch(url, { method: 'PUT', headers: signed.headers, body: HTML })
    expect(res.status, await res.clone().text()).toBe(400)
    expect(await res.text()).toContain('<Code>XAmzContentSHA256Mismatch</Code>')
    const same = await fetch(url, { method: 'PUT', headers: signed.headers, body: 'what was signed' })
    expect(same.status, await same.clone().text()).toBe(200)
    expect(await (await fetch(url)).text()).toBe('what was signed')
    await storageWith(secret).put('k/original.bin', original, 'application/octet-stream')
  })
})
