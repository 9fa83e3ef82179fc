import { describe, expect, it } from 'vitest'
import { insertAsset } from '../../../src/db/queries/media'
import { randomBase62 } from '../../../src/lib/ids'
import { createTestApp, type TestApp } from '../../support/test-app'

/** Assets written straight to the library, at the given times (two may share one, to test the tie-break). */
async function library(t: TestApp, times: string[]): Promise<string[]> {
  const ids: string[] = []
  for (const [i, at] of times.entries()) {
    const id = `med_${String(i).padStart(2, '0')}${randomBase62(10)}`
    await insertAsset(t.deps.db, {
      id,
      workspaceId: t.workspaceId,
      type: 'IMAGE',
      storageKey: `${t.workspaceId}/list/${id}.jpg`,
      url: `https://media.example.test/${id}.jpg`,
      mimeType: 'image/jpeg',
      sizeBytes: 1000 + i,
      createdAt: new Date(at),
    })
    ids.push(id)
  }
  return ids
}

const ids = (assets: Array<{ id: string }>) => assets.map((a) => a.id)

describe('GET /v1/media pages', () => {
  it('walks the library with cursor and limit in the order of the plain list, ties included', async () => {
    const t = await createTestApp()
    await library(t, [
      '2026-01-01T00:00:00Z',
      '2026-01-02T00:00:00Z',
      '2026-01-02T00:00:00Z',
      '2026-01-03T00:00:00Z',
      '2026-01-04T00:00:00Z',
    ])
    const plain = await (await t.call('GET', '/v1/media')).json()
    expect(Array.isArray(plain)).toBe(true)
    expect(plain).toHaveLength(5)

    const walked: string[] = []
    const pages: number[] = []
    let res = await t.call('GET', '/v1/media?limit=2')
    for (;;) {
      expect(res.status).toBe(200)
      const page = await res.json()
      expect(Object.keys(page).sort()).toEqual(['data', 'nextCursor'])
      walked.push(...ids(page.data))
      pages.push(page.data.length)
      if (page.nextCursor === null) break
      res = await t.call('GET', `/v1/media?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`)
    }
    expect(pages).toEqual([2, 2, 1])
    expect(walked).toEqual(ids(plain))
  })

  it('keeps its pages when assets are added meanwhile, defaults the size, and refuses an unknown cursor', async () => {
    const t = await createTestApp()
    const made = await library(t, ['2026-02-01T00:00:00Z', '2026-02-02T00:00:00Z', '2026-02-03T00:00:00Z'])
    const first = await (await t.call('GET', '/v1/media?limit=1')).json()
    expect(ids(first.data)).toEqual([made[2]])
    await library(t, ['2026-03-01T00:00:00Z'])
    const second = await (await t.call('GET', `/v1/media?cursor=${first.nextCursor}`)).json()
    expect(ids(second.data)).toEqual([made[1], made[0]])
    expect(second.nextCursor).toBeNull()

    const unknown = await t.call('GET', '/v1/media?cursor=med_nope')
    expect(unknown.status).toBe(400)
    expect((await unknown.json()).error).toMatchObject({ code: 'invalid_request', details: [{ path: 'query.cursor' }] })
    expect((await t.call('GET', '/v1/media?limit=0')).status).toBe(400)
    expect((await t.call('GET', '/v1/media?limit=101')).status).toBe(400)
  })

  it('documents the page in the OpenAPI schema', async () => {
    const t = await createTestApp()
    const doc = await (await t.call('GET', '/v1/openapi.json', { token: null })).json()
    const op = doc.paths['/v1/media'].get
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['folderId', 'limit', 'cursor']),
    )
    expect(doc.components.schemas.MediaPage.properties).toHaveProperty('nextCursor')
  })
})
