import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startLocalS3 } from '../src/infra/storage/local-s3'

/**
 * The media store several instances share (as they would share one S3 bucket), in its own process:
 * the local store of `npm start` (s3rver behind its SigV4 check) in a fresh folder. Prints
 * `store <endpoint> <bucket> <secret>`; removes the folder on SIGTERM.
 */
const directory = mkdtempSync(join(tmpdir(), 'sps-bench-s3-'))
const store = await startLocalS3({ directory, bucket: 'media', host: '127.0.0.1', port: 0 })
await store.start()
console.log(`store ${store.endpoint} ${store.bucket} ${store.credentials.secretAccessKey}`)
process.once(
  'SIGTERM',
  () =>
    void store
      .close()
      .finally(() => rmSync(directory, { recursive: true, force: true }))
      .finally(() => process.exit(0)),
)
