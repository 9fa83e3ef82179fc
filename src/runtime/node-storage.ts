/**
 * Media storage of the Node runtime (`openNodeStorage`), for the server, which serves the local
 * store itself, and for the CLI, which talks to the server's.
 */
import { join } from 'node:path'
import { ConfigError, type NodeConfig } from '../config'
import { LOCAL_S3_ACCESS_KEY_ID, resolveLocalS3Secret, startLocalS3 } from '../infra/storage/local-s3'
import { createS3Storage } from '../infra/storage/s3'
import type { ObjectStorage } from '../infra/storage/types'

/**
 * Media storage of the Node runtime: the S3-compatible store of S3_ENDPOINT, else a local store
 * (s3rver) under DATA_DIR/s3 on LOCAL_S3_PORT, serving its objects itself and accepting only writes
 * signed with the secret in DATA_DIR/local-s3.key. The same S3 code either way.
 */
export async function openNodeStorage(
  config: NodeConfig,
  options: { serve: boolean } = { serve: true },
): Promise<{ storage: ObjectStorage; description: string; start(): Promise<void>; close(): Promise<void> }> {
  if (config.S3_ENDPOINT) {
    const missing = (['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'MEDIA_PUBLIC_URL'] as const).filter(
      (k) => !config[k],
    )
    if (missing.length > 0) throw new ConfigError(missing.map((k) => `${k}: is required with S3_ENDPOINT`))
    const storage = createS3Storage({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
      publicBaseUrl: config.MEDIA_PUBLIC_URL!,
    })
    return { storage, description: config.S3_ENDPOINT, start: async () => {}, close: async () => {} }
  }
  const port = config.LOCAL_S3_PORT ?? (config.PORT === 0 ? 0 : config.PORT + 1)
  if (!options.serve) {
    // Another process (npm start) serves the local store: talk to it where it listens.
    const endpoint = `http://${config.HOST}:${port}`
    return {
      storage: localStoreClient(config, endpoint, config.S3_BUCKET),
      description: endpoint,
      start: async () => {},
      close: async () => {},
    }
  }
  const local = await startLocalS3({
    directory: join(config.DATA_DIR, 's3'),
    bucket: config.S3_BUCKET,
    host: config.HOST,
    port,
    secretAccessKey: resolveLocalS3Secret(config.DATA_DIR),
  })
  return {
    storage: localStoreClient(config, local.endpoint, local.bucket),
    description: `${local.endpoint}/${local.bucket}`,
    start: local.start,
    close: local.close,
  }
}

function localStoreClient(config: NodeConfig, endpoint: string, bucket: string): ObjectStorage {
  return createS3Storage({
    endpoint,
    region: 'us-east-1',
    bucket,
    // The secret of DATA_DIR: the local store refuses writes not signed with it.
    accessKeyId: LOCAL_S3_ACCESS_KEY_ID,
    secretAccessKey: resolveLocalS3Secret(config.DATA_DIR),
    publicBaseUrl: config.MEDIA_PUBLIC_URL ?? `${endpoint}/${bucket}`,
  })
}
