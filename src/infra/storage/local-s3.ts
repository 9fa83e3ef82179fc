import { randomBytes, createHash, timingSafeEqual } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs'
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { listenWithRetry } from '../listen'
import { verifySigV4, type SigV4Credentials } from './sigv4-verify'

/** s3rver's built-in account: the only access key id it knows (it does not check the secret). */
export const LOCAL_S3_ACCESS_KEY_ID = 'S3RVER'

export interface LocalS3 {
  /** `http://host:port`: the S3 endpoint, and (with the bucket) the public base of the objects. */
  endpoint: string
  bucket: string
  /** The key pair writes must be signed with. */
  credentials: SigV4Credentials
  /**
   * Starts the store behind the front now (it starts on the first request otherwise): the front
   * listens at once and s3rver, half a second of module loading, waits until something needs it.
   */
  start(): Promise<void>
  close(): Promise<void>
}

/** Browsers may PUT to presigned URLs and GET objects from any origin, as with a public R2 bucket. */
const CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>`

/** Reads: anyone may read an object by its key, as from a public bucket; nothing else of the bucket. */
const READ_METHODS = new Set(['GET', 'HEAD'])

/** Whether a request carries a signature of some kind (header or presigned query, SigV4 or not), to be checked. */
function carriesSignature(req: IncomingMessage): boolean {
  if (req.headers.authorization !== undefined) return true
  const query = new URL(req.url ?? '/', 'http://store').searchParams
  return ['X-Amz-Algorithm', 'X-Amz-Signature', 'X-Amz-Credential', 'Signature', 'AWSAccessKeyId'].some((k) =>
    query.has(k),
  )
}

/**
 * The object an anonymous read names, as the path-style address `/<bucket>/<key>` to pass on (the
 * query dropped: a public bucket serves the object whatever follows `?`, and s3rver would read
 * `?acl`, `?uploadId` and the like as other operations), or null when it names no object (the list
 * of buckets, the bucket's listing, a key that is empty).
 */
function publicObjectPath(req: IncomingMessage, bucket: string): string | null {
  const path = (req.url ?? '/').split('?')[0]!
  const prefix = `/${bucket}/`
  if (!path.startsWith(prefix)) return null
  const key = path.slice(prefix.length)
  return key === '' || key.startsWith('/') ? null : path
}

/** A fresh secret for the local store. */
export const generateLocalS3Secret = () => randomBytes(32).toString('base64url')

/**
 * The local store's secret for `dataDir`: read from `dataDir/local-s3.key`, created on first use
 * (0600), so that `npm start` and the CLI of the same DATA_DIR sign with the same key.
 */
export function resolveLocalS3Secret(dataDir: string): string {
  const file = join(dataDir, 'local-s3.key')
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true })
    try {
      writeFileSync(file, `${generateLocalS3Secret()}\n`, { mode: 0o600, flag: 'wx' })
      chmodSync(file, 0o600)
    } catch (err) {
      // Another process (the CLI, npm start) made it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
  }
  return readFileSync(file, 'utf8').trim()
}

const xmlEscape = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!)

function sendError(req: IncomingMessage, res: ServerResponse, status: number, code: string, message: string) {
  const body =
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${xmlEscape(code)}</Code>` +
    `<Message>${xmlEscape(message)}</Message><Resource>${xmlEscape((req.url ?? '/').split('?')[0]!)}</Resource>` +
    `<RequestId>${randomBytes(8).toString('hex').toUpperCase()}</RequestId></Error>`
  const headers: Record<string, string> = {
    'content-type': 'application/xml',
    'content-length': String(Buffer.byteLength(body)),
  }
  if (req.headers.origin) headers['access-control-allow-origin'] = '*'
  res.writeHead(status, headers)
  res.end(body)
  // Discard whatever body was sent; nothing of it reaches the store.
  req.resume()
}

/**
 * Passes the request (its body streamed, or `body` already read) to s3rver, and its answer back;
 * `path` and `host` replace the request's own (an anonymous read goes on path-style, to the
 * object it names, whatever Host it came with: s3rver reads a bucket name out of a Host).
 */
function forward(
  req: IncomingMessage,
  res: ServerResponse,
  upstreamPort: number,
  override: { body?: Buffer; path?: string; host?: string } = {},
) {
  const { body } = override
  const headers = override.host ? { ...req.headers, host: override.host } : req.headers
  const upstream = request(
    { host: '127.0.0.1', port: upstreamPort, method: req.method, path: override.path ?? req.url, headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    },
  )
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502)
    res.end()
  })
  // The client went away before the answer was through.
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy()
  })
  if (body) upstream.end(body)
  else req.pipe(upstream)
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })

/** What the front needs to answer a request: s3rver's port (started on demand), the key pair, the bucket. */
interface Front {
  upstream: () => Promise<number>
  credentials: SigV4Credentials
  bucket: string
}

/**
 * The public front of the local store. CORS preflights go straight to s3rver; an anonymous read of
 * an object by its key too, as from a public R2 bucket; any other anonymous read (the list of
 * buckets, a bucket's listing, its settings) is refused with 403 AccessDenied, as a public bucket
 * refuses it. Every other request (a signed read, PUT, POST, DELETE, multipart, bucket operations)
 * must carry a valid, unexpired SigV4 signature made with `credentials` (s3rver itself does not check
 * signatures), else it is refused with 403 and never reaches s3rver. A signed payload hash is checked
 * against the body before it is passed on.
 */
async function handle(req: IncomingMessage, res: ServerResponse, front: Front): Promise<void> {
  const method = req.method ?? 'GET'
  const upstreamPort = await front.upstream()
  if (method === 'OPTIONS') return forward(req, res, upstreamPort)
  if (READ_METHODS.has(method) && !carriesSignature(req)) {
    const path = publicObjectPath(req, front.bucket)
    if (path === null) return sendError(req, res, 403, 'AccessDenied', 'Access Denied')
    return forward(req, res, upstreamPort, { path, host: `127.0.0.1:${upstreamPort}` })
  }
  const verdict = await verifySigV4({ method, url: req.url ?? '/', headers: req.headers }, front.credentials)
  if (!verdict.ok) return sendError(req, res, verdict.status, verdict.code, verdict.message)
  if (verdict.payloadHash === null) return forward(req, res, upstreamPort)
  const body = await readBody(req)
  const actual = createHash('sha256').update(body).digest()
  if (!timingSafeEqual(actual, Buffer.from(verdict.payloadHash, 'hex'))) {
    return sendError(
      req,
      res,
      400,
      'XAmzContentSHA256Mismatch',
      "The provided 'x-amz-content-sha256' header does not match what was computed.",
    )
  }
  forward(req, res, upstreamPort, { body })
}

/**
 * A local S3-compatible store (Node only) for `npm start` and the tests: s3rver keeping objects on
 * disk under `directory`, with one bucket, on an internal loopback port, behind a front on
 * `host:port` that checks SigV4 signatures. Objects are readable by key without credentials, like a
 * public R2 bucket, which lists nothing to anyone; listings and writes need a request signed with `credentials` (presigned URL or
 * Authorization header), so, as on R2/S3, a presigned PUT with another content type or length
 * than was signed, or past its expiry, is refused.
 */
export async function startLocalS3(options: {
  directory: string
  bucket: string
  host?: string
  port?: number
  /** Defaults to a fresh random secret. */
  secretAccessKey?: string
  /** How long a port in use is tried again (10 s). */
  portRetryMs?: number
}): Promise<LocalS3> {
  mkdirSync(options.directory, { recursive: true })
  const credentials: SigV4Credentials = {
    accessKeyId: LOCAL_S3_ACCESS_KEY_ID,
    secretAccessKey: options.secretAccessKey ?? generateLocalS3Secret(),
  }
  let upstream: Promise<{ port: number; close(): Promise<void> }> | undefined
  /** s3rver on an internal port, started once (again after a failed start). */
  const startUpstream = () =>
    (upstream ??= (async () => {
      const { default: S3rver } = await import('s3rver')
      const store = new S3rver({
        address: '127.0.0.1',
        port: 0,
        silent: true,
        directory: options.directory,
        configureBuckets: [{ name: options.bucket, configs: [CORS] }],
      })
      const info = await store.run()
      return { port: info.port, close: () => store.close() }
    })().catch((err) => {
      upstream = undefined
      throw err
    }))
  const front = createServer((req, res) => {
    const upstreamPort = async () => (await startUpstream()).port
    handle(req, res, { upstream: upstreamPort, credentials, bucket: options.bucket }).catch(() => {
      if (!res.headersSent) sendError(req, res, 500, 'InternalError', 'We encountered an internal error.')
      else res.destroy()
    })
  })
  // The port of a store stopped or killed a moment ago may still be held: tried again for a while.
  await listenWithRetry(front, {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    retryMs: options.portRetryMs ?? 10_000,
    onRetry: (message) => process.stderr.write(`Local store: ${message}\n`),
  })
  const address = front.address() as AddressInfo
  const host = address.address.includes(':') ? `[${address.address}]` : address.address
  const close = async () => {
    await new Promise<void>((resolve) => {
      front.close(() => resolve())
      front.closeAllConnections()
    })
    const started = await upstream?.catch(() => null)
    await started?.close()
  }
  const start = async () => {
    await startUpstream()
  }
  return { endpoint: `http://${host}:${address.port}`, bucket: options.bucket, credentials, start, close }
}
