/**
 * Object storage as a port: R2 (S3 API) in production, a local S3-compatible store for `npm start`
 * and tests. Bytes of uploads go from the client straight to the store through a presigned PUT;
 * the service itself only reads headers and small ranges, writes the variants it renders, and streams
 * in the files it fetches from a URL (media from a URL).
 */
export interface PresignPutInput {
  key: string
  /** Bound into the signature: the PUT must send exactly this `Content-Type`. */
  contentType: string
  /** When known, bound into the signature too: the store refuses a body of any other length. */
  contentLength?: number | undefined
  expiresInSec: number
}

export interface PresignedPut {
  url: string
  /** Headers the PUT must carry exactly as given (they are part of the signature). */
  headers: Record<string, string>
}

export interface ObjectHead {
  sizeBytes: number
  contentType: string | null
}

/**
 * Size of each part of a streamed write: at least 5 MiB (S3's smallest part but the last), and all
 * parts but the last the same size (R2 requires it). Memory a streamed write holds at most.
 */
export const STREAM_PART_BYTES = 8 * 1024 * 1024

export interface ObjectStorage {
  presignPut(input: PresignPutInput): Promise<PresignedPut>
  /** The object's public URL (R2 custom domain / public bucket). Pure: no request is made. */
  publicUrl(key: string): string
  /** null when there is no such object. */
  head(key: string): Promise<ObjectHead | null>
  /** Bytes `start` to `end` inclusive (clamped to the object); null when there is no such object. */
  getRange(key: string, start: number, end: number): Promise<Uint8Array | null>
  get(key: string): Promise<Uint8Array | null>
  put(key: string, body: Uint8Array, contentType: string): Promise<void>
  /**
   * Writes a body of unknown length as it arrives, holding at most one part in memory
   * (`STREAM_PART_BYTES`): one PUT when it fits in a part, else a multipart upload. When `body`
   * errors the upload is abandoned (nothing is stored) and the error rethrown. Answers the size.
   */
  putStream(key: string, body: ReadableStream<Uint8Array>, contentType: string): Promise<{ sizeBytes: number }>
  delete(key: string): Promise<void>
}
