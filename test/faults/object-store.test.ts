/**
 * Issue 35, item 3: the object store down or slow during the four works that touch it: a presigned
 * upload and its registration, media from a URL, a variants job, and a publish that reads media.
 * The app's store client goes through a fault proxy (support/store-proxy.ts) in front of the test's
 * real S3-compatible store; each work meets each fault (connection refused, connection reset, S3's
 * 503 SlowDown, a stall past the client's bound), then the store comes back and the same work is
 * done again. Measured per work: items, items lost (ended neither done nor refused in words),
 * items present twice, seconds from the store's return to the work done.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import { POLICY, federated, targetRow } from '../reliability/support/fault-harness'
import { createLeakWatch } from '../reliability/support/leaks'
import { MEDIA_ANSWER_TIMEOUT_MS } from '../../src/networks/http'
import { file, startSource } from '../support/file-server'
import { storedMedia } from '../support/fixtures'
import { jpeg, paint, png } from '../support/media'
import { storageVia, storedKeys, testStorage } from '../support/storage'
import { createTestApp } from '../support/test-app'
import type { ObjectStorage } from '../../src/infra/storage/types'
import { databaseOf, recordFault, secondsSince } from './support/fault-report'
import { FAULTS, listed, refusals, STALL_SEC, STORE_TIMEOUT_MS, tallyOf } from './support/store-faults'
import { startStoreProxy, type StoreFault, type StoreProxy } from './support/store-proxy'

const database = databaseOf(inject('databaseUrl'))
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const watch = createLeakWatch()
const refused = refusals(watch)
const expectUnavailable = refused.expectUnavailable
const slowest = refused.slowest

let proxy: StoreProxy
let storage: ObjectStorage

beforeAll(async () => {
  proxy = await startStoreProxy((await testStorage()).endpoint)
  storage = await storageVia(proxy.url, { timeoutMs: STORE_TIMEOUT_MS })
})
// A test that failed half-way leaves the store as it was, not faulted for the next one.
beforeEach(async () => {
  refused.reset()
  await proxy.set({ kind: 'pass' })
})
afterAll(async () => {
  await proxy.close()
  expect(watch.leaks()).toEqual([])
})

/** An app whose store client goes through the fault proxy. */
const app = () => createTestApp({ parts: (p) => ({ ...p, storage }) })

describe('the object store down or slow', () => {
  it('presigned upload: presign still works, registration answers 503 and registers nothing, then succeeds', async () => {
    const t = await app()
    const bytes = await png(paint(32, 24, (x, y) => [x * 8, y * 10, 90]))
    const tally = tallyOf()
    const recoveries: number[] = []
    let done = 0
    let duplicated = 0
    for (const { name, fault } of FAULTS) {
      await proxy.set(fault)
      // Presigning is local signing: it works with the store down.
      const ticketRes = await t.call('POST', '/v1/media/uploads', {
        body: { filename: `shot-${name}.png`, contentType: 'image/png', sizeBytes: bytes.length },
      })
      expect(ticketRes.status).toBe(200)
      tally.add('presign: 200')
      const ticket = await ticketRes.json()
      const put = (signal: AbortSignal) =>
        fetch(ticket.uploadUrl, {
          method: 'PUT',
          headers: ticket.headers,
          body: new Blob([bytes.slice()]),
          signal,
        }).then(
          (r) => r.status,
          () => 'no answer',
        )
      // The client's PUT fails at the store itself.
      expect(await put(AbortSignal.timeout(STORE_TIMEOUT_MS))).not.toBe(200)
      const register = () =>
        t.call('POST', '/v1/media', { body: { type: 'IMAGE', storageKey: ticket.storageKey, url: ticket.url } })
      // Registration while the store cannot even say whether the object is there.
      let started = Date.now()
      tally.add(
        `register with nothing stored: ${await expectUnavailable(await register(), started, `register ${name}`)}`,
      )
      // The PUT goes through; the store fails again before the registration.
      await proxy.set({ kind: 'pass' })
      expect(await put(AbortSignal.timeout(10_000))).toBe(200)
      await proxy.set(fault)
      started = Date.now()
      tally.add(
        `register with the object stored: ${await expectUnavailable(await register(), started, `register ${name}`)}`,
      )
      // Nothing half-registered: no asset of that key.
      await proxy.set({ kind: 'pass' })
      expect((await listed(t)).filter((a) => a.storageKey === ticket.storageKey)).toEqual([])
      const back = Date.now()
      const first = await register()
      if (first.status === 200) done++
      recoveries.push(secondsSince(back))
      const again = await register()
      expect(again.status).toBe(200)
      expect((await again.json()).id).toBe((await first.json()).id)
      duplicated += Math.max(0, (await listed(t)).filter((a) => a.storageKey === ticket.storageKey).length - 1)
    }
    const row = recordFault({
      id: '3-store-upload',
      fault: 'Object store down or slow during a presigned upload',
      injected:
        'a proxy in front of the S3 store: connection refused, connection reset, 503 SlowDown, a 5 s stall (client bound 2 s per store call)',
      during: 'presign, the PUT to the store, then POST /v1/media (register), one upload per fault',
      duration: 'until the register was answered, then the store back',
      meanwhile: `${tally.words()}; ${slowest()}`,
      recoverySec: Math.max(...recoveries),
      targets: FAULTS.length,
      lost: FAULTS.length - done,
      duplicated,
      database,
      note: 'No asset row while the store cannot confirm the object; the same register succeeds once it can.',
    })
    expect(row.lost).toBe(0)
    expect(row.duplicated).toBe(0)
  })

  it('media from a URL: 503 within the bound, nothing registered or left stored, then the same import succeeds', async () => {
    const t = await app()
    const bytes = await jpeg(paint(48, 32, (x, y) => [x * 5, y * 7, 200]))
    const source = await startSource({ '/photo.jpg': file(bytes, 'image/jpeg') })
    const tally = tallyOf()
    const recoveries: number[] = []
    let done = 0
    let duplicated = 0
    for (const { name, fault } of FAULTS) {
      const keysBefore = await storedKeys(`${t.workspaceId}/`)
      const assetsBefore = (await listed(t)).length
      await proxy.set(fault)
      const importIt = () => t.call('POST', '/v1/media', { body: { sourceUrl: `${source.url}/photo.jpg` } })
      const started = Date.now()
      tally.add(await expectUnavailable(await importIt(), started, `import ${name}`))
      await proxy.set({ kind: 'pass' })
      // Nothing registered; nothing left in the store (a write the store never confirmed is deleted or never made).
      expect((await listed(t)).length).toBe(assetsBefore)
      expect(await storedKeys(`${t.workspaceId}/`)).toEqual(keysBefore)
      const back = Date.now()
      const res = await importIt()
      expect(res.status).toBe(200)
      done++
      recoveries.push(secondsSince(back))
      const asset = await res.json()
      const keys = await storedKeys(`${t.workspaceId}/`)
      duplicated += Math.max(0, keys.length - keysBefore.length - 1)
      expect(keys).toContain(asset.storageKey)
      expect((await listed(t)).length).toBe(assetsBefore + 1)
    }
    const row = recordFault({
      id: '3-store-import',
      fault: 'Object store down or slow during a media-from-URL import',
      injected: 'the store proxy: refused, reset, 503 SlowDown, a 5 s stall (client bound 2 s per store call)',
      during: 'POST /v1/media with sourceUrl (a loopback file server), one import per fault',
      duration: 'one import, then the store back',
      meanwhile: `${tally.words()}; ${slowest()}`,
      recoverySec: Math.max(...recoveries),
      targets: FAULTS.length,
      lost: FAULTS.length - done,
      duplicated,
      database,
      note: 'Each refused import left no asset and no object; the same import after the store came back made exactly one.',
    })
    expect(row.lost).toBe(0)
    expect(row.duplicated).toBe(0)
  })

  it('variants: 503 when the original cannot be read or a variant written, no variant row, the original untouched', async () => {
    const t = await app()
    const bytes = await jpeg(paint(320, 240, (x, y) => [x % 256, y % 256, 120]))
    const sourceId = await storedMedia(t, { bytes, mimeType: 'image/jpeg', width: 320, height: 240 })
    const [original] = (await listed(t)).filter((a) => a.id === sourceId)
    const jobs: Array<{ name: string; fault: StoreFault }> = [
      { name: 'refused', fault: { kind: 'refused' } },
      { name: 'reset on reading the original', fault: { kind: 'reset', methods: ['GET'] } },
      { name: 'SlowDown on writing', fault: { kind: 'busy', code: 'SlowDown', methods: ['PUT'] } },
      { name: 'stall on writing', fault: { kind: 'stall', sec: STALL_SEC, methods: ['PUT'] } },
    ]
    const tally = tallyOf()
    const variants = () =>
      t.call('POST', `/v1/media/${sourceId}/variants`, { body: { formats: ['feed_square', 'story'] } })
    for (const { name, fault } of jobs) {
      await proxy.set(fault)
      const started = Date.now()
      tally.add(await expectUnavailable(await variants(), started, `variants ${name}`))
      expect(proxy.faulted(), name).toBeGreaterThanOrEqual(fault.kind === 'refused' ? 0 : 1)
      await proxy.set({ kind: 'pass' })
      expect((await listed(t)).filter((a) => a.sourceId === sourceId)).toEqual([])
    }
    // The original: the same row, the same bytes.
    expect((await listed(t)).find((a) => a.id === sourceId)).toEqual(original)
    expect(sha256((await storage.get(original.storageKey))!)).toBe(sha256(bytes))
    const back = Date.now()
    const made = await variants()
    expect(made.status).toBe(200)
    const recoverySec = secondsSince(back)
    const result = await made.json()
    // Every variant row points at an object that is there.
    for (const v of result.variants) expect((await fetch(v.url)).status).toBe(200)
    const rows = (await listed(t)).filter((a) => a.sourceId === sourceId)
    const again = await (await variants()).json()
    expect(again.variants.map((v: any) => v.id)).toEqual(result.variants.map((v: any) => v.id))
    const row = recordFault({
      id: '3-store-variants',
      fault: 'Object store down or slow during a variants job',
      injected:
        'the store proxy: refused; reset on reads (the original); 503 SlowDown and a 5 s stall on writes (the variant) only',
      during: 'POST /v1/media/{id}/variants (feed_square and story, two files) on one source, once per fault',
      duration: 'one job, then the store back',
      meanwhile: `${tally.words()}; ${slowest()}`,
      recoverySec,
      targets: jobs.length,
      // Each job was refused in words; the one after the store came back made every variant.
      lost: rows.length === 2 ? 0 : jobs.length,
      duplicated: Math.max(0, rows.length - 2),
      database,
      note: 'No variant row without its object during the faults; the original row and bytes unchanged.',
    })
    expect(row.lost).toBe(0)
    expect(row.duplicated).toBe(0)
  })

  it('a publish that reads media: retried with backoff as a network failure, then published exactly once', async () => {
    const h = await federated(watch, (p) => ({ ...p, storage }))
    const bytes = await jpeg(paint(64, 64, (x, y) => [x * 3, y * 3, 60]))
    const tally = tallyOf()
    const recoveries: number[] = []
    const posts: string[] = []
    // A stall past the engine's bound on the store's answer to a media read (30 s) too.
    const pastBound: { name: string; fault: StoreFault } = {
      name: 'stall past the bound',
      fault: { kind: 'stall', sec: MEDIA_ANSWER_TIMEOUT_MS / 1000 + 3 },
    }
    const cases: Array<{ name: string; fault: StoreFault }> = [...FAULTS, pastBound]
    for (const [i, { name, fault }] of cases.entries()) {
      const media = await storedMedia(h.t, { bytes, mimeType: 'image/jpeg', width: 64, height: 64 })
      const post = await h.publish({
        caption: `store fault ${i}: ${name}`,
        accountIds: [h.account.id],
        mediaIds: [media],
      })
      posts.push(post.id)
      const targetId = post.targets[0].id
      await proxy.set(fault)
      const started = Date.now()
      const outcome = await h.run()
      const elapsedMs = Date.now() - started
      if (fault.kind === 'stall' && fault.sec === STALL_SEC) {
        // A stall under the engine's bound on the store's answer only makes the attempt longer.
        expect(outcome).toEqual(['published'])
        expect(elapsedMs).toBeGreaterThanOrEqual(STALL_SEC * 1000)
        tally.add(`stall ${STALL_SEC} s: published at the first attempt`)
        await proxy.set({ kind: 'pass' })
        recoveries.push(0)
        continue
      }
      expect(outcome).toEqual(['retrying'])
      const target = (await h.post(post.id)).targets[0]
      expect(target).toMatchObject({ status: 'PENDING', attempts: 1, error: { code: 'transient' } })
      expect(target.error.message).toMatch(/could not be read from storage/)
      if (fault.kind === 'stall') {
        expect(target.error.message).toMatch(/did not answer within 30 s/)
        expect(elapsedMs).toBeLessThan(MEDIA_ANSWER_TIMEOUT_MS + 5000)
      }
      const row = await targetRow(h.t, targetId)
      // Backoff: the first retry is due POLICY.backoffBaseSec later on the engine's clock.
      expect(row.dueAt!.getTime() - h.clock.now().getTime()).toBe(POLICY.backoffBaseSec * 1000)
      tally.add(`${name}: transient, retry in ${POLICY.backoffBaseSec} s`)
      // The network was never called for this post.
      expect(h.fake.state.statuses.filter((s) => s.text.includes(`store fault ${i}:`))).toEqual([])
      await proxy.set({ kind: 'pass' })
      const back = Date.now()
      expect(await h.later(POLICY.backoffBaseSec)).toEqual(['published'])
      recoveries.push(secondsSince(back))
      expect((await h.post(post.id)).targets[0]).toMatchObject({ status: 'PUBLISHED', attempts: 2 })
    }
    const published = cases.map(
      (_case, i) => h.fake.state.statuses.filter((s) => s.text.includes(`store fault ${i}:`)).length,
    )
    for (const id of posts) await h.finish(id)
    const row = recordFault({
      id: '3-store-publish',
      fault: 'Object store down or slow while the engine reads a post’s media',
      injected:
        'the store proxy (the media’s public URL): refused, reset, 503 SlowDown, a 5 s stall, a 33 s stall (past the 30 s bound on the answer)',
      during: 'an IMAGE post due now to the federated network fake (media upload, then status)',
      duration: 'one attempt, then the store back',
      meanwhile: tally.words(),
      recoverySec: Math.max(...recoveries),
      targets: posts.length,
      lost: published.filter((n) => n === 0).length,
      duplicated: published.reduce((sum, n) => sum + Math.max(0, n - 1), 0),
      database,
      note: `Retries due ${POLICY.backoffBaseSec} s later on the engine's fixed clock; recoverySec is real time of the retry. The 33 s stall ended the attempt transient after 30 s, the network never called.`,
    })
    expect(row.lost).toBe(0)
    expect(row.duplicated).toBe(0)
  })
})
