/**
 * How the S3 client (src/infra/storage/s3.ts) tells the store's failures apart, against the real
 * local store: no answer (a closed port) is 503 `storage_unavailable` with a wait and words of ours;
 * a refusal of the store (a wrong secret) stays what it is, a misconfiguration; a missing object is
 * still null. The faults during real work are in test/faults/object-store.test.ts.
 */
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { AppError } from '../../src/domain/errors'
import { createS3Storage, STORE_RETRY_AFTER_SEC } from '../../src/infra/storage/s3'
import { storageVia, testStorage, TEST_BUCKET } from '../support/storage'

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('S3 storage failures', () => {
  it('a store that does not answer: storage_unavailable, retryable, without the driver’s text', async () => {
    const storage = await storageVia(`http://127.0.0.1:${await closedPort()}`, { timeoutMs: 5000 })
    for (const call of [
      () => storage.head('ws/2026/11/a.jpg'),
      () => storage.get('ws/2026/11/a.jpg'),
      () => storage.put('ws/2026/11/a.jpg', new Uint8Array(10), 'image/jpeg'),
      () => storage.delete('ws/2026/11/a.jpg'),
    ]) {
      const err = await call().then(
        () => null,
        (e: unknown) => e,
      )
      expect(err).toBeInstanceOf(AppError)
      expect(err).toMatchObject({ code: 'storage_unavailable', retryAfterSec: STORE_RETRY_AFTER_SEC })
      expect((err as AppError).message).not.toMatch(/ECONN|socket|aws|S3/i)
    }
  })

  it('a store that refuses our signature is a misconfiguration, not an outage; a missing object is null', async () => {
    const { endpoint } = await testStorage()
    const wrong = createS3Storage({
      endpoint,
      region: 'us-east-1',
      bucket: TEST_BUCKET,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'not-the-secret',
      publicBaseUrl: `${endpoint}/${TEST_BUCKET}`,
    })
    const err = await wrong.put('ws/2026/11/b.jpg', new Uint8Array(10), 'image/jpeg').then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).not.toBeNull()
    expect(err).not.toBeInstanceOf(AppError)
    const right = await storageVia(endpoint)
    expect(await right.head('ws/2026/11/none.jpg')).toBeNull()
    expect(await right.get('ws/2026/11/none.jpg')).toBeNull()
  })
})
