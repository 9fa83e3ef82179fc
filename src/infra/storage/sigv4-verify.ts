import { createHash, createHmac, timingSafeEqual, type Hash, type Hmac } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { SignatureV4 } from '@smithy/signature-v4'

/**
 * Verification of AWS Signature Version 4 on requests received by the local store (Node only):
 * the signature is recomputed with @smithy/signature-v4 (the AWS SDK's own signer) from the
 * request as received and the known secret, then compared in constant time. Both forms S3
 * accepts: a presigned URL (X-Amz-* query parameters, payload UNSIGNED-PAYLOAD) and an
 * `Authorization: AWS4-HMAC-SHA256 …` header (payload hash in `x-amz-content-sha256`).
 */

export interface SigV4Credentials {
  accessKeyId: string
  secretAccessKey: string
}

export interface SigV4Request {
  method: string
  /** The request target as received: raw (still percent-encoded) path and query. */
  url: string
  headers: IncomingHttpHeaders
}

export type SigV4Verdict =
  /** `payloadHash`: a hex SHA-256 the body must still be checked against, or null (unsigned payload). */
  { ok: true; payloadHash: string | null } | { ok: false; status: number; code: string; message: string }

/** How far a header-signed request's `x-amz-date` may be from now, as S3 allows. */
const MAX_SKEW_MS = 15 * 60 * 1000
const MAX_PRESIGNED_TTL_SEC = 7 * 24 * 60 * 60
const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD'
const HEX_SHA256 = /^[0-9a-f]{64}$/

const deny = (code: string, message: string, status = 403): SigV4Verdict => ({ ok: false, status, code, message })

/** node:crypto as the signer's SHA-256 / HMAC-SHA-256 (the `sha256` constructor it expects). */
class NodeSha256 {
  private hash: Hash | Hmac
  constructor(private readonly secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = this.create()
  }
  private create(): Hash | Hmac {
    if (this.secret === undefined) return createHash('sha256')
    const key =
      typeof this.secret === 'string'
        ? this.secret
        : ArrayBuffer.isView(this.secret)
          ? new Uint8Array(this.secret.buffer, this.secret.byteOffset, this.secret.byteLength)
          : new Uint8Array(this.secret)
    return createHmac('sha256', key)
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    if (typeof data === 'string') this.hash.update(data, 'utf8')
    else if (ArrayBuffer.isView(data)) this.hash.update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
    else this.hash.update(new Uint8Array(data))
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()))
  }
  reset(): void {
    this.hash = this.create()
  }
}

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a, 'utf8')
  const y = Buffer.from(b, 'utf8')
  return x.length === y.length && timingSafeEqual(x, y)
}

/** `20240101T000000Z` → Date, or null. */
function parseAmzDate(value: string | undefined): Date | null {
  const m = value ? /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value) : null
  if (!m) return null
  const date = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!))
  return Number.isNaN(date.getTime()) ? null : date
}

const headerValue = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name]
  return Array.isArray(v) ? v.join(',') : v
}

/**
 * `<key>/<yyyymmdd>/<region>/s3/aws4_request` with our key and the date of the request, or an error.
 */
function checkCredentialScope(
  credential: string,
  amzDate: string,
  credentials: SigV4Credentials,
): { region: string } | SigV4Verdict {
  const parts = credential.split('/')
  if (parts.length !== 5 || parts[3] !== 's3' || parts[4] !== 'aws4_request' || !/^[a-z0-9-]+$/.test(parts[2]!)) {
    return deny('AuthorizationQueryParametersError', 'Malformed credential scope')
  }
  if (!safeEqual(parts[0]!, credentials.accessKeyId)) {
    return deny('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.')
  }
  if (parts[1] !== amzDate.slice(0, 8)) {
    return deny('SignatureDoesNotMatch', 'The credential date does not match the request date')
  }
  return { region: parts[2]! }
}

function parseSignedHeaders(list: string | undefined, headers: IncomingHttpHeaders): string[] | SigV4Verdict {
  const names = (list ?? '').split(';').filter(Boolean)
  if (names.length === 0) return deny('AccessDenied', 'No signed headers')
  if (!names.includes('host')) return deny('AccessDenied', 'The host header must be signed')
  for (const name of names) {
    if (name !== name.toLowerCase() || headerValue(headers, name) === undefined) {
      return deny('SignatureDoesNotMatch', `Signed header ${name} is missing from the request`)
    }
  }
  return names
}

const signerFor = (credentials: SigV4Credentials, region: string) =>
  new SignatureV4({
    credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
    region,
    service: 's3',
    sha256: NodeSha256,
    // S3 signs the path as sent (no second encoding, no normalisation), like the S3 client does.
    uriEscapePath: false,
    applyChecksum: true,
  })

function splitTarget(url: string): { path: string; params: [string, string][] } {
  const q = url.indexOf('?')
  const path = q === -1 ? url : url.slice(0, q)
  const params = q === -1 ? [] : [...new URLSearchParams(url.slice(q + 1)).entries()]
  return { path, params }
}

const toQuery = (params: [string, string][]) => {
  const query: Record<string, string | string[]> = {}
  for (const [k, v] of params) {
    const prev = query[k]
    query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v]
  }
  return query
}

/**
 * Whether `req` carries a valid SigV4 signature (presigned query or Authorization header) made
 * with `credentials`, unexpired. Never reads the body: a signed payload hash is returned for the
 * caller to check against the body before anything is written.
 */
export async function verifySigV4(
  req: SigV4Request,
  credentials: SigV4Credentials,
  now: Date = new Date(),
): Promise<SigV4Verdict> {
  const { path, params } = splitTarget(req.url)
  const get = (name: string) => params.find(([k]) => k === name)?.[1]
  const authorization = headerValue(req.headers, 'authorization')
  const presigned = params.some(([k]) => k === 'X-Amz-Algorithm')
  if (presigned && authorization !== undefined) {
    return deny('InvalidArgument', 'Only one auth mechanism allowed', 400)
  }
  if (params.some(([k]) => k === 'Signature' || k === 'AWSAccessKeyId')) {
    return deny('AccessDenied', 'Signature Version 2 is not accepted; sign with AWS4-HMAC-SHA256')
  }
  if (!presigned && authorization === undefined) return deny('AccessDenied', 'Anonymous writes are not allowed')
  if (params.some(([k]) => k.toLowerCase() === 'x-amz-security-token') || req.headers['x-amz-security-token']) {
    return deny('InvalidToken', 'Session tokens are not accepted by this store')
  }
  return presigned
    ? verifyPresigned(req, path, params, get, credentials, now)
    : verifyAuthorizationHeader(req, path, params, authorization!, credentials, now)
}

async function verifyPresigned(
  req: SigV4Request,
  path: string,
  params: [string, string][],
  get: (name: string) => string | undefined,
  credentials: SigV4Credentials,
  now: Date,
): Promise<SigV4Verdict> {
  if (get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') {
    return deny('AuthorizationQueryParametersError', 'X-Amz-Algorithm must be AWS4-HMAC-SHA256', 400)
  }
  const amzDate = get('X-Amz-Date')
  const signedAt = parseAmzDate(amzDate)
  const expiresText = get('X-Amz-Expires') ?? ''
  const expires = /^\d{1,7}$/.test(expiresText) ? Number(expiresText) : NaN
  const signature = get('X-Amz-Signature')
  const credential = get('X-Amz-Credential')
  if (!signedAt || !amzDate || !signature || !credential || !(expires >= 1 && expires <= MAX_PRESIGNED_TTL_SEC)) {
    return deny('AuthorizationQueryParametersError', 'Missing or malformed X-Amz-* query parameters', 400)
  }
  if (now.getTime() > signedAt.getTime() + expires * 1000) return deny('AccessDenied', 'Request has expired')
  if (signedAt.getTime() > now.getTime() + MAX_SKEW_MS) return deny('AccessDenied', 'Request is not valid yet')
  const scope = checkCredentialScope(credential, amzDate, credentials)
  if ('ok' in scope) return scope
  const signed = parseSignedHeaders(get('X-Amz-SignedHeaders'), req.headers)
  if (!Array.isArray(signed)) return signed

  // What S3 hashes as the payload of a presigned request: UNSIGNED-PAYLOAD unless a hash was given.
  const declaredHash =
    params.find(([k]) => k.toLowerCase() === 'x-amz-content-sha256')?.[1] ??
    (signed.includes('x-amz-content-sha256') ? headerValue(req.headers, 'x-amz-content-sha256') : undefined) ??
    UNSIGNED_PAYLOAD
  if (declaredHash !== UNSIGNED_PAYLOAD && !HEX_SHA256.test(declaredHash)) {
    return deny('InvalidArgument', 'Unsupported x-amz-content-sha256', 400)
  }
  const headers: Record<string, string> = {}
  for (const name of signed) headers[name] = headerValue(req.headers, name)!
  // Only for the payload hash the signer reads from the headers: neither signed nor moved to the query.
  const payloadOnly = !signed.includes('x-amz-content-sha256')
  if (payloadOnly) headers['x-amz-content-sha256'] = declaredHash
  const query = toQuery(params.filter(([k]) => k !== 'X-Amz-Signature'))
  const signedNames = new Set(signed)
  const recomputed = await signerFor(credentials, scope.region).presign(
    { method: req.method, protocol: 'http:', hostname: headers.host ?? '', path, query, headers },
    {
      signingDate: signedAt,
      expiresIn: expires,
      signableHeaders: signedNames,
      unsignableHeaders: payloadOnly ? new Set(['x-amz-content-sha256']) : undefined,
      // Signed x-amz-* headers came as headers: keep them there.
      unhoistableHeaders: new Set([...signedNames, 'x-amz-content-sha256']),
    },
  )
  const expected = recomputed.query?.['X-Amz-Signature']
  if (typeof expected !== 'string' || !safeEqual(expected, signature)) {
    return deny(
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    )
  }
  return { ok: true, payloadHash: declaredHash === UNSIGNED_PAYLOAD ? null : declaredHash }
}

async function verifyAuthorizationHeader(
  req: SigV4Request,
  path: string,
  params: [string, string][],
  authorization: string,
  credentials: SigV4Credentials,
  now: Date,
): Promise<SigV4Verdict> {
  const m = /^AWS4-HMAC-SHA256\s+Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})\s*$/.exec(
    authorization,
  )
  if (!m) return deny('AccessDenied', 'Unsupported or malformed Authorization header (AWS4-HMAC-SHA256 expected)')
  const [, credential, signedList, signature] = m as unknown as [string, string, string, string]
  const amzDate = headerValue(req.headers, 'x-amz-date')
  const signedAt = parseAmzDate(amzDate)
  if (!signedAt || !amzDate) return deny('AccessDenied', 'A signed x-amz-date header is required')
  if (Math.abs(now.getTime() - signedAt.getTime()) > MAX_SKEW_MS) {
    return deny('RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.')
  }
  const scope = checkCredentialScope(credential, amzDate, credentials)
  if ('ok' in scope) return scope
  const signed = parseSignedHeaders(signedList, req.headers)
  if (!Array.isArray(signed)) return signed
  if (!signed.includes('x-amz-date') || !signed.includes('x-amz-content-sha256')) {
    return deny('AccessDenied', 'x-amz-date and x-amz-content-sha256 must be signed')
  }
  const declaredHash = headerValue(req.headers, 'x-amz-content-sha256')!
  if (declaredHash !== UNSIGNED_PAYLOAD && !HEX_SHA256.test(declaredHash)) {
    // aws-chunked (STREAMING-…) uploads would need each chunk's signature checked: not supported.
    return deny('NotImplemented', 'Only UNSIGNED-PAYLOAD or a hex SHA-256 payload hash is supported', 501)
  }
  const headers: Record<string, string> = {}
  for (const name of signed) headers[name] = headerValue(req.headers, name)!
  const recomputed = await signerFor(credentials, scope.region).sign(
    { method: req.method, protocol: 'http:', hostname: headers.host ?? '', path, query: toQuery(params), headers },
    { signingDate: signedAt, signableHeaders: new Set(signed) },
  )
  const expected = /Signature=([0-9a-f]+)$/.exec(String(recomputed.headers.authorization ?? ''))?.[1]
  const expectedSigned = /SignedHeaders=([^,\s]+)/.exec(String(recomputed.headers.authorization ?? ''))?.[1]
  if (!expected || expectedSigned !== signedList || !safeEqual(expected, signature)) {
    return deny(
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    )
  }
  return { ok: true, payloadHash: declaredHash === UNSIGNED_PAYLOAD ? null : declaredHash }
}
