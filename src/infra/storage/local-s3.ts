import { mkdirSync } from 'node:fs'
import S3rver from 's3rver'

/** s3rver's built-in account: it accepts only this key pair. */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const

export interface LocalS3 {
  /** `http://host:port`: the S3 endpoint, and (with the bucket) the public base of the objects. */
  endpoint: string
  bucket: string
  close(): Promise<void>
}

/** Browsers may PUT to presigned URLs and GET objects from any origin, as with a public R2 bucket. */
const CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>`

/**
 * A local S3-compatible store (Node only) for `npm start` and the tests: s3rver keeping objects on
 * disk under `directory`, with one bucket. Objects are readable without credentials, like a public
 * R2 bucket. s3rver checks a presigned URL's expiry and access key but NOT its SigV4 signature, so
 * the content type and length bound into a signature are enforced by R2/S3 only.
 */
export async function startLocalS3(options: {
  directory: string
  bucket: string
  host?: string
  port?: number
}): Promise<LocalS3> {
  mkdirSync(options.directory, { recursive: true })
  const server = new S3rver({
    address: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    silent: true,
    directory: options.directory,
    configureBuckets: [{ name: options.bucket, configs: [CORS] }],
  })
  const info = await server.run()
  const host = info.address.includes(':') ? `[${info.address}]` : info.address
  return { endpoint: `http://${host}:${info.port}`, bucket: options.bucket, close: () => server.close() }
}
