import { describe, expect, it } from 'vitest'
import { jpeg, paint, upload } from '../../support/media'
import { createTestApp } from '../../support/test-app'

const photo = () => jpeg(paint(64, 48, (x, y) => [x * 4, y * 5, 128]))
const key = (k: string) => ({ 'idempotency-key': k })

describe('Idempotency-Key on the media routes', () => {
  it('replays an upload ticket for the same key and body, and refuses the key with another body', async () => {
    const t = await createTestApp()
    const body = { filename: 'a.jpg', contentType: 'image/jpeg' }
    const first = await t.call('POST', '/v1/media/uploads', { body, headers: key('up-1') })
    const again = await t.call('POST', '/v1/media/uploads', { body, headers: key('up-1') })
    expect(first.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect((await again.json()).storageKey).toBe((await first.json()).storageKey)
    const fresh = await t.call('POST', '/v1/media/uploads', { body })
    expect(fresh.headers.get('idempotent-replayed')).toBeNull()
    const other = await t.call('POST', '/v1/media/uploads', {
      body: { ...body, filename: 'b.jpg' },
      headers: key('up-1'),
    })
    expect(other.status).toBe(422)
    expect((await other.json()).error.code).toBe('idempotency_key_reused')
  })

  it('replays a registration and a variants request', async () => {
    const t = await createTestApp()
    const ticket = await upload(t, await photo(), 'image/jpeg')
    const register = { type: 'IMAGE', storageKey: ticket.storageKey, url: ticket.url }
    const asset = await (await t.call('POST', '/v1/media', { body: register, headers: key('reg-1') })).json()
    const replayed = await t.call('POST', '/v1/media', { body: register, headers: key('reg-1') })
    expect(replayed.headers.get('idempotent-replayed')).toBe('true')
    expect(await replayed.json()).toEqual(asset)

    const variants = { formats: ['feed_square'] }
    const path = `/v1/media/${asset.id}/variants`
    const made = await t.call('POST', path, { body: variants, headers: key('var-1') })
    expect(made.status).toBe(200)
    const again = await t.call('POST', path, { body: variants, headers: key('var-1') })
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toEqual(await made.json())
  })

  it('documents the header on the three routes', async () => {
    const t = await createTestApp()
    const doc = await (await t.call('GET', '/v1/openapi.json', { token: null })).json()
    for (const path of ['/v1/media/uploads', '/v1/media', '/v1/media/{id}/variants']) {
      const params = doc.paths[path].post.parameters as Array<{ name: string; in: string }>
      expect(params, path).toContainEqual(expect.objectContaining({ name: 'idempotency-key', in: 'header' }))
    }
  })
})
