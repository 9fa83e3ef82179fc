import type { S3Client, S3ServiceException } from '@aws-sdk/client-s3'
import {
  STREAM_PART_BYTES,
  type ObjectHead,
  type ObjectStorage,
  type PresignedPut,
  type PresignPutInput,
} from './types'

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

/** The SDK, loaded on the first operation: it costs about half a second of a start that may never store a file. */
const loadSdk = async () => {
  const [s3, presigner] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')])
  return { ...s3, getSignedUrl: presigner.getSignedUrl }
}
type Sdk = Awaited<ReturnType<typeof loadSdk>>

/** An error the S3 service answered (not a network failure), with its HTTP status. */
const serviceError = (sdk: Sdk, err: unknown): err is S3ServiceException => err instanceof sdk.S3ServiceException

const isMissing = (sdk: Sdk, err: unknown) =>
  serviceError(sdk, err) &&
  (err.name === 'NotFound' || err.name === 'NoSuchKey' || err.$metadata?.httpStatusCode === 404)

/** Keys are made of safe characters only (see services/media-uploads), but encode each segment anyway. */
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/')

/**
 * The body cut into parts of exactly `size` bytes (the last one shorter, possibly empty), one part
 * in memory at a time.
 */
async function* partsOf(body: ReadableStream<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  const reader = body.getReader()
  let part = new Uint8Array(size)
  let filled = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      let offset = 0
      while (offset < value.byteLength) {
        const n = Math.min(size - filled, value.byteLength - offset)
        part.set(value.subarray(offset, offset + n), filled)
        filled += n
        offset += n
        if (filled === size) {
          yield part
          part = new Uint8Array(size)
          filled = 0
        }
      }
    }
  } finally {
    reader.releaseLock()
  }
  yield part.subarray(0, filled)
}

/**
 * The S3 API through AWS SDK v3: the same code on Workers (R2) and Node (s3rver or any S3).
 * The client is built here from plain options; nothing reads the environment.
 */
export function createS3Storage(options: S3StorageOptions): ObjectStorage {
  let loading: Promise<Sdk & { client: S3Client }> | undefined
  /** The SDK and the client, made on first use (a failed load is tried again next time). */
  const connect = () =>
    (loading ??= loadSdk().then((sdk) => ({
      ...sdk,
      client: new sdk.S3Client({
        region: options.region,
        endpoint: options.endpoint,
        forcePathStyle: options.forcePathStyle ?? true,
        credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
        // R2 rejects the SDK's default CRC32 checksum headers on presigned PUTs the client cannot know.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    }))).catch((err) => {
      loading = undefined
      throw err
    })
  const Bucket = options.bucket
  const base = options.publicBaseUrl.replace(/\/+$/, '')

  async function read(key: string, range?: string): Promise<Uint8Array | null> {
    const sdk = await connect()
    const { client, GetObjectCommand } = sdk
    try {
      const res = await client.send(new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: range } : {}) }))
      return res.Body ? await res.Body.transformToByteArray() : new Uint8Array(0)
    } catch (err) {
      if (isMissing(sdk, err)) return null
      // A range starting past the end of the object.
      if (serviceError(sdk, err) && err.$metadata?.httpStatusCode === 416) return new Uint8Array(0)
      throw err
    }
  }

  async function put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    const { client, PutObjectCommand } = await connect()
    await client.send(
      new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.byteLength }),
    )
  }

  return {
    async presignPut(input: PresignPutInput): Promise<PresignedPut> {
      const { client, PutObjectCommand, getSignedUrl } = await connect()
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
      const sdk = await connect()
      const { client, HeadObjectCommand } = sdk
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket, Key: key }))
        return { sizeBytes: res.ContentLength ?? 0, contentType: res.ContentType ?? null }
      } catch (err) {
        if (isMissing(sdk, err)) return null
        throw err
      }
    },
    getRange: (key, start, end) => read(key, `bytes=${start}-${end}`),
    get: (key) => read(key),
    put,
    async putStream(key, body, contentType) {
      const parts = partsOf(body, STREAM_PART_BYTES)
      const first = (await parts.next()).value as Uint8Array
      if (first.byteLength < STREAM_PART_BYTES) {
        await put(key, first, contentType)
        return { sizeBytes: first.byteLength }
      }
      const sdk = await connect()
      const { client, CreateMultipartUploadCommand, UploadPartCommand } = sdk
      const { CompleteMultipartUploadCommand, AbortMultipartUploadCommand } = sdk
      const created = await client.send(
        new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: contentType }),
      )
      const UploadId = created.UploadId!
      const done: { ETag: string; PartNumber: number }[] = []
      let sizeBytes = 0
      try {
        for (let part: Uint8Array | undefined = first; part; part = (await parts.next()).value || undefined) {
          if (part.byteLength === 0) break
          const PartNumber = done.length + 1
          const res = await client.send(
            new UploadPartCommand({
              Bucket,
              Key: key,
              UploadId,
              PartNumber,
              Body: part,
              ContentLength: part.byteLength,
            }),
          )
          done.push({ ETag: res.ETag!, PartNumber })
          sizeBytes += part.byteLength
        }
        await client.send(
          new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId, MultipartUpload: { Parts: done } }),
        )
        return { sizeBytes }
      } catch (err) {
        // The body is not read further; best effort: the store also expires abandoned uploads itself.
        await parts.return(undefined)
        await body.cancel().catch(() => {})
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId })).catch(() => {})
        throw err
      }
    },
    async delete(key) {
      const { client, DeleteObjectCommand } = await connect()
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }))
    },
  }
}
