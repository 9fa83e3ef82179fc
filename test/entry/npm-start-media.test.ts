import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { startServer } from '../support/processes'
import { jpeg, paint } from '../support/media'

// These tests start real processes (tsx, PGlite, the local store): minutes on a loaded machine, not seconds.
vi.setConfig({ testTimeout: 180_000 })

const dataDir = mkdtempSync(join(tmpdir(), 'sps-media-start-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
const env = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  NODE_NO_WARNINGS: '1',
}

describe('npm start with the local object store', () => {
  it('takes an upload with curl, cuts its variants, and serves the files at their urls, from DATA_DIR/s3, across restarts', async () => {
    const server = await startServer(env)
    const token = /sps_[0-9A-Za-z]{43}/.exec(server.output())?.[0]
    expect(token, server.output()).toBeTruthy()
    expect(server.output()).toMatch(/Media store: http:\/\/127\.0\.0\.1:\d+\/media/)
    const bytes = await jpeg(paint(32, 24, (x) => [x * 8, 100, 50]))
    const file = join(dataDir, 'photo.jpg')
    writeFileSync(file, bytes)
    let url: string
    try {
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
      const ticket: any = await (
        await fetch(`${server.baseUrl}/v1/media/uploads`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ filename: 'photo.jpg', contentType: 'image/jpeg' }),
        })
      ).json()
      // What the README tells a newcomer to run.
      const curl = await promisify(execFile)('curl', [
        '-sS',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code}',
        '-X',
        'PUT',
        '-H',
        'Content-Type: image/jpeg',
        '--upload-file',
        file,
        ticket.uploadUrl,
      ])
      expect(curl.stdout).toBe('200')
      const asset: any = await (
        await fetch(`${server.baseUrl}/v1/media`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ type: 'IMAGE', storageKey: ticket.storageKey, url: ticket.url }),
        })
      ).json()
      expect(asset).toMatchObject({ width: 32, height: 24, sizeBytes: bytes.length, mimeType: 'image/jpeg' })
      url = asset.url
      expect(new Uint8Array(await (await fetch(url)).arrayBuffer())).toEqual(bytes)
      // The crops: the codecs' WebAssembly (ours among them) has to be found beside the bundle npm start runs.
      const cut = await fetch(`${server.baseUrl}/v1/media/${asset.id}/variants`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ formats: ['feed_square', 'story'] }),
      })
      const variants: any = await cut.json()
      expect(cut.status, JSON.stringify(variants)).toBe(200)
      expect(variants.variants.map((v: any) => [v.format, v.width, v.height])).toEqual([
        ['feed_square', 1080, 1080],
        ['story', 1080, 1920],
      ])
      const square = await fetch(variants.variants[0].url)
      expect(square.headers.get('content-type')).toBe('image/jpeg')
    } finally {
      expect(await server.stop()).toBe(0)
    }
    expect(readdirSync(join(dataDir, 's3'))).toContain('media')
    const again = await startServer(env)
    try {
      // The store listens on a new port after a restart, but the object is still there.
      const path = new URL(url).pathname
      const base = /Media store: (http:\/\/\S+)\/media/.exec(again.output())![1]
      expect((await fetch(`${base}${path}`)).status).toBe(200)
    } finally {
      await again.stop()
    }
  })
})
