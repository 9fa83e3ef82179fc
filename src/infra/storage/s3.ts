import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import type { ObjectHead, ObjectStorage, PresignedPut, PresignPutInput } from './types'

export interface S3StorageOptions {
  endpoint: string
  region: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  /** Base URL the bucket's objects are served from; an object's URL is this plus its key. */
  publicBaseUrl: string
  /** Path-style addressing (`endpoint/bucket/key`): R2 and local stores want it. */
  forcePathStyle?: boolean
}

const isMissing = (err: unknown) =>
  err instanceof S3ServiceException &&
  (err.name === 'NotFound' || err.name === 'NoSuchKey' || err.$metadata?.httpStatusCode === 404)

/** Keys are made of safe characters only (see services/media-uploads), but encode each segment anyway. */
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/')

/**
 * The S3 API through AWS SDK v3: the same code on Workers (R2) and Node (s3rver or any S3).
 * The client is built here from plain options; nothing reads the environment.
 */
export function createS3Storage(options: S3StorageOptions): ObjectStorage {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle ?? true,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // R2 rejects the SDK's default CRC32 checksum headers on presigned PUTs the client cannot know.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  const Bucket = options.bucket
  const base = options.publicBaseUrl.replace(/\/+$/, '')

  async function read(key: string, range?: string): Promise<Uint8Array | null> {
    try {
      const res = await client.send(new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: range } : {}) }))
      return res.Body ? await res.Body.transformToByteArray() : new Uint8Array(0)
    } catch (err) {
      if (isMissing(err)) return null
      // A range starting past the end of the object.
      if (err instanceof S3ServiceException && err.$metadata?.httpStatusCode === 416) return new Uint8Array(0)
      throw err
    }
  }

  return {
    async presignPut(input: PresignPutInput): Promise<PresignedPut> {
      const command = new PutObjectCommand({
        Bucket,
        Key: input.key,
        ContentType: input.contentType,
        ...(input.contentLength !== undefined ? { ContentLength: input.contentLength } : {}),
      })
      const signableHeaders = new Set([
        'content-type',
        ...(input.contentLength !== undefined ? ['content-length'] : []),
      ])
      const url = await getSignedUrl(client, command, { expiresIn: input.expiresInSec, signableHeaders })
      const headers: Record<string, string> = { 'Content-Type': input.contentType }
      if (input.contentLength !== undefined) headers['Content-Length'] = String(input.contentLength)
      return { url, headers }
    },
    publicUrl: (key) => `${base}/${encodeKey(key)}`,
    async head(key): Promise<ObjectHead | null> {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket, Key: key }))
        return { sizeBytes: res.ContentLength ?? 0, contentType: res.ContentType ?? null }
      } catch (err) {
        if (isMissing(err)) return null
        throw err
      }
    },
    getRange: (key, start, end) => read(key, `bytes=${start}-${end}`),
    get: (key) => read(key),
    async put(key, body, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          ContentLength: body.byteLength,
        }),
      )
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }))
    },
  }
}
