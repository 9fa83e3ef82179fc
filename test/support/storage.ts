import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { startLocalS3, type LocalS3 } from '../../src/infra/storage/local-s3'
import { createS3Storage } from '../../src/infra/storage/s3'
import type { ObjectStorage } from '../../src/infra/storage/types'

export const TEST_BUCKET = 'media-test'

let started: Promise<{ local: LocalS3; dir: string }> | null = null

/**
 * This test file's object store: a local s3rver on a free loopback port (real HTTP, the production
 * S3 client and presigner), started on first use and closed when the file's tests are done.
 */
export async function testStorage(): Promise<{ storage: ObjectStorage; endpoint: string }> {
  if (!started) {
    const dir = mkdtempSync(join(tmpdir(), 'sps-s3-'))
    started = startLocalS3({ directory: dir, bucket: TEST_BUCKET }).then((local) => ({ local, dir }))
  }
  const { local } = await started
  const storage = createS3Storage({
    endpoint: local.endpoint,
    region: 'us-east-1',
    bucket: TEST_BUCKET,
    ...local.credentials,
    publicBaseUrl: `${local.endpoint}/${TEST_BUCKET}`,
  })
  return { storage, endpoint: local.endpoint }
}

/**
 * The production S3 client for this file's store, reached through another address (a fault proxy
 * in front of it): signed with the store's keys, objects' public URLs on that address.
 */
export async function storageVia(endpoint: string, options: { timeoutMs?: number } = {}): Promise<ObjectStorage> {
  await testStorage()
  const { local } = await started!
  return createS3Storage({
    endpoint,
    region: 'us-east-1',
    bucket: TEST_BUCKET,
    ...local.credentials,
    publicBaseUrl: `${endpoint}/${TEST_BUCKET}`,
    ...options,
  })
}

/** The keys this file's store holds under `prefix`, listed as the service's own client would (signed: the store lists nothing to anyone). */
export async function storedKeys(prefix: string): Promise<string[]> {
  await testStorage()
  const { local } = await started!
  const { S3Client, ListObjectsV2Command } = await import('@aws-sdk/client-s3')
  const client = new S3Client({
    endpoint: local.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: local.credentials,
  })
  const listed = await client.send(new ListObjectsV2Command({ Bucket: TEST_BUCKET, Prefix: prefix }))
  client.destroy()
  return (listed.Contents ?? []).map((o) => o.Key!)
}

afterAll(async () => {
  if (!started) return
  const { local, dir } = await started
  started = null
  await local.close()
  rmSync(dir, { recursive: true, force: true })
})
