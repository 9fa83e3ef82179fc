import { describe, expect, it } from 'vitest'
import { storedMedia } from '../../support/fixtures'
import { jpeg, paint } from '../../support/media'
import { createTestApp, type TestApp } from '../../support/test-app'

async function photo(t: TestApp, altText: string | null = 'First words') {
  const bytes = await jpeg(paint(400, 500, (x, y) => [x % 256, y % 256, 120]))
  return storedMedia(t, { bytes, mimeType: 'image/jpeg', width: 400, height: 500, altText })
}

describe('PATCH /v1/media/{id}', () => {
  it("changes the alt text of a file and of the variants cut from it; the file's other fields stay", async () => {
    const t = await createTestApp()
    const id = await photo(t)
    const cut = await (await t.call('POST', `/v1/media/${id}/variants`, { body: { formats: ['feed_square'] } })).json()
    const variantId = cut.variants[0].id
    const before = await (await t.call('GET', `/v1/media/${id}`)).json()

    const res = await t.call('PATCH', `/v1/media/${id}`, { body: { altText: '  A red kite over the hill ' } })
    expect(res.status).toBe(200)
    const after = await res.json()
    expect(after).toEqual({ ...before, altText: 'A red kite over the hill' })
    expect((await (await t.call('GET', `/v1/media/${variantId}`)).json()).altText).toBe('A red kite over the hill')

    // Blank or null removes it.
    const cleared = await (await t.call('PATCH', `/v1/media/${id}`, { body: { altText: ' ' } })).json()
    expect(cleared.altText).toBeNull()
  })

  it('moves a file into a folder by name (created once), by id, and out of it', async () => {
    const t = await createTestApp()
    const id = await photo(t)
    const named = await (await t.call('PATCH', `/v1/media/${id}`, { body: { folder: 'Winter launch' } })).json()
    expect(named.folderId).toMatch(/^fld_/)
    const other = await photo(t)
    const byName = await (await t.call('PATCH', `/v1/media/${other}`, { body: { folder: 'Winter launch' } })).json()
    expect(byName.folderId).toBe(named.folderId)
    const inFolder = await (await t.call('GET', `/v1/media?folderId=${named.folderId}`)).json()
    expect(inFolder.map((a: { id: string }) => a.id).sort()).toEqual([id, other].sort())

    const out = await (await t.call('PATCH', `/v1/media/${id}`, { body: { folderId: null } })).json()
    expect(out.folderId).toBeNull()
    const back = await (await t.call('PATCH', `/v1/media/${id}`, { body: { folderId: named.folderId } })).json()
    expect(back.folderId).toBe(named.folderId)
  })

  it('refuses an unknown field, a long alt text and an unknown folder, and changes nothing', async () => {
    const t = await createTestApp()
    const id = await photo(t)
    const unchanged = await t.call('PATCH', `/v1/media/${id}`, { body: {} }) // an empty edit changes nothing
    expect([unchanged.status, (await unchanged.json()).altText]).toEqual([200, 'First words'])
    const refusals = [
      [{ alt: 'typo' }, 400],
      [{ altText: 'x'.repeat(2001) }, 400],
      [{ altText: 'ok', folderId: 'fld_doesNotExist' }, 422],
    ] as const
    for (const [body, status] of refusals) {
      const res = await t.call('PATCH', `/v1/media/${id}`, { body })
      expect([body, res.status]).toEqual([body, status])
      expect((await res.json()).error.code).toBe(status === 400 ? 'invalid_request' : 'invalid_option')
    }
    expect((await (await t.call('GET', `/v1/media/${id}`)).json()).altText).toBe('First words')
  })

  it("answers 404 for another workspace's file and leaves it as it was", async () => {
    const a = await createTestApp()
    const b = await createTestApp() // same database, another workspace
    const theirs = await photo(b, 'Theirs')
    const res = await a.call('PATCH', `/v1/media/${theirs}`, { body: { altText: 'Mine now' } })
    expect(res.status).toBe(404)
    expect((await (await b.call('GET', `/v1/media/${theirs}`)).json()).altText).toBe('Theirs')
  })
})
