import type { S3Client, S3ServiceException } from '@aws-sdk/client-s3'
import { AppError } from '../../domain/errors'
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
  /**
   * Longest one store call may take, the SDK's own retries and the body's transfer included
   * (`STORE_CALL_TIMEOUT_MS` by default); past it the call ends 503 `storage_unavailable`.
   */
  timeoutMs?: number
}

/** Default bound of one store call (a head, a range, a variant's PUT, one 8 MiB part of a stream). */
export const STORE_CALL_TIMEOUT_MS = 30_000
/** What a `storage_unavailable` answer asks the caller to wait before trying again. */
export const STORE_RETRY_AFTER_SEC = 5

/** S3's answers that mean "not now" rather than "no": throttling and the service's own failures. */
const BUSY_CODES = new Set(['SlowDown', 'ServiceUnavailable', 'InternalError', 'RequestTimeout', 'Throttling'])

/**
 * The error upper layers see when the store did not do what was asked: down, refusing, throttling
 * or too slow. Retryable, with a wait; never the driver's text.
 */
export function storageUnavailable(what: string, timedOut: boolean): AppError {
  const why = timedOut ? 'did not answer in time' : 'is unavailable'
  const message = `The media store ${why} while ${what}; nothing was stored or registered. Try again in ${STORE_RETRY_AFTER_SEC} seconds.`
  return new AppError('storage_unavailable', message, {
    details: [{ path: 'storage', message: `the media store ${why}`, reason: timedOut ? 'timeout' : 'unavailable' }],
    retryAfterSec: STORE_RETRY_AFTER_SEC,
  })
}

/** The SDK, loaded on the first operation: it costs about half a second of a start that may never store a file. */
const loadSdk = async () => {
  const [s3, presigner] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')])
  return { ...s3, getSignedUrl: presigner.getSignedUrl }
}
type Sdk = Awaited<ReturnType<typeof loadSdk>>

/** An error the S3 service answered (not a network failure), with its HTTP status. */
const serviceError = (sdk: Sdk, err: unknown): err is S3ServiceException => err instanceof sdk.S3ServiceException

/**
 * Whether the store failed to serve rather than refused: no answer at all (refused, reset, timed
 * out), a 5xx, or S3's throttling codes. A 4xx refusal (a bad signature, a missing bucket) is our
 * misconfiguration and stays what it is.
 */
function storeFailed(sdk: Sdk, err: unknown): boolean {
  if (!serviceError(sdk, err)) return true
  const status = err.$metadata?.httpStatusCode ?? 0
  return status >= 500 || status === 0 || status === 429 || BUSY_CODES.has(err.name)
}

const isMissing = (sdk: Sdk, err: unknown) =>
  serviceError(sdk, err) &&
  (err.name === 'NotFound' || err.name === 'NoSuchKey' || err.$metadata?.httpStatusCode === 404)

/** Keys are made of safe characters only (see services/media/uploads), but encode each segment anyway. */
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
  const timeoutMs = options.timeoutMs ?? STORE_CALL_TIMEOUT_MS

  /**
   * One store call, bounded by `timeoutMs` (the signal aborts the SDK's request; the race ends a
   * body stalled past it), its failure to serve turned into `storage_unavailable`.
   */
  async function bounded<T>(sdk: Sdk, what: string, op: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort()
        reject(storageUnavailable(what, true))
      }, timeoutMs)
    })
    try {
      return await Promise.race([op(controller.signal), expired])
    } catch (err) {
      if (err instanceof AppError) throw err
      if (controller.signal.aborted) throw storageUnavailable(what, true)
      if (storeFailed(sdk, err)) throw storageUnavailable(what, false)
      throw err
    } finally {
      clearTimeout(timer)
    }
  }

  async function read(key: string, range?: string): Promise<Uint8Array | null> {
    const sdk = await connect()
    const { client, GetObjectCommand } = sdk
    try {
      return await bounded(sdk, 'reading a file', async (abortSignal) => {
        const command = new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: range } : {}) })
        const res = await client.send(command, { abortSignal })
        return res.Body ? await res.Body.transformToByteArray() : new Uint8Array(0)
      })
    } catch (err) {
      if (isMissing(sdk, err)) return null
      // A range starting past the end of the object.
      if (serviceError(sdk, err) && err.$metadata?.httpStatusCode === 416) return new Uint8Array(0)
      throw err
    }
  }

  async function put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    const sdk = await connect()
    const { client, PutObjectCommand } = sdk
    const command = new PutObjectCommand({
      Bucket,
      Key: key,
      Body: body,
      ContentType: contentType,
      ContentLength: body.byteLength,
    })
    await bounded(sdk, 'storing a file', (abortSignal) => client.send(command, { abortSignal }))
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
        const command = new HeadObjectCommand({ Bucket, Key: key })
        const res = await bounded(sdk, 'checking a file', (abortSignal) => client.send(command, { abortSignal }))
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
      const what = 'storing a file'
      const created = await bounded(sdk, what, (abortSignal) =>
        client.send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: contentType }), { abortSignal }),
      )
      const UploadId = created.UploadId!
      const done: { ETag: string; PartNumber: number }[] = []
      let sizeBytes = 0
      try {
        for (let part: Uint8Array | undefined = first; part; part = (await parts.next()).value || undefined) {
          if (part.byteLength === 0) break
          const PartNumber = done.length + 1
          const command = new UploadPartCommand({
            Bucket,
            Key: key,
            UploadId,
            PartNumber,
            Body: part,
            ContentLength: part.byteLength,
          })
          const res = await bounded(sdk, what, (abortSignal) => client.send(command, { abortSignal }))
          done.push({ ETag: res.ETag!, PartNumber })
          sizeBytes += part.byteLength
        }
        const complete = new CompleteMultipartUploadCommand({
          Bucket,
          Key: key,
          UploadId,
          MultipartUpload: { Parts: done },
        })
        await bounded(sdk, what, (abortSignal) => client.send(complete, { abortSignal }))
        return { sizeBytes }
      } catch (err) {
        // The body is not read further; best effort: the store also expires abandoned uploads itself.
        await parts.return(undefined)
        await body.cancel().catch(() => {})
        const abort = new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId })
        await bounded(sdk, what, (abortSignal) => client.send(abort, { abortSignal })).catch(() => {})
        throw err
      }
    },
    async delete(key) {
      const sdk = await connect()
      const command = new sdk.DeleteObjectCommand({ Bucket, Key: key })
      await bounded(sdk, 'deleting a file', (abortSignal) => sdk.client.send(command, { abortSignal }))
    },
  }
}
