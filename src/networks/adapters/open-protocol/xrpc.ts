/**
 * The open-protocol network's transport (Bluesky / AT Protocol XRPC): one call with the network's
 * error classes, the session an app password buys (cached in the credentials, since
 * createSession is limited to 30 per 5 minutes and 300 a day), and the deterministic record keys
 * that make a retried post land on the same record.
 */
import type { CredentialRefresh, FailureKind } from '../../adapter'
import { asFailedResult, credential, joinUrl, NetworkFailure, request, retryAfterSec } from '../../http'

export const NETWORK = 'OPENPROTOCOL_NET'

/** XRPC `error` names -> failure class; anything else falls back to the HTTP status. */
const ERROR_KINDS: Record<string, FailureKind> = {
  ExpiredToken: 'auth_expired',
  InvalidToken: 'auth_expired',
  AuthenticationRequired: 'auth_expired',
  AccountTakedown: 'rejected',
  RateLimitExceeded: 'rate_limited',
}
/** Renew the access token when it expires within this many seconds. */
const ACCESS_MARGIN_SEC = 60
/** Base32-sortable alphabet of TIDs (atproto spec "tid"). */
const TID_ALPHABET = '234567abcdefghijklmnopqrstuvwxyz'

export interface Session {
  accessJwt: string
  refreshJwt: string
  did: string
  handle: string
  /** The account's PDS from its DID document, when the server said (audience of service tokens). */
  pdsUrl?: string
}

export interface XrpcCall {
  method?: 'GET' | 'POST'
  token?: string
  params?: Record<string, string | string[]>
  json?: unknown
  body?: BodyInit
  headers?: Record<string, string>
  timeoutMs?: number
}

/** Calls `{origin}/xrpc/{nsid}`; returns the JSON body, throws a classified `NetworkFailure`. */
export async function xrpc(
  fetchImpl: typeof fetch,
  origin: string,
  nsid: string,
  call: XrpcCall,
  now: Date,
): Promise<any> {
  const query = new URLSearchParams()
  for (const [k, v] of Object.entries(call.params ?? {}))
    for (const one of Array.isArray(v) ? v : [v]) query.append(k, one)
  const url = joinUrl(origin, `xrpc/${nsid}`) + (query.size ? `?${query}` : '')
  const headers: Record<string, string> = { ...call.headers }
  if (call.token) headers.authorization = `Bearer ${call.token}`
  const answer = await request(fetchImpl, NETWORK, url, {
    method: call.method ?? (call.json !== undefined || call.body !== undefined ? 'POST' : 'GET'),
    headers,
    ...(call.json !== undefined ? { json: call.json } : {}),
    ...(call.body !== undefined ? { body: call.body } : {}),
    ...(call.timeoutMs ? { timeoutMs: call.timeoutMs } : {}),
  })
  if (answer.status >= 200 && answer.status < 300) return answer.body ?? {}
  const name: string | undefined = typeof answer.body?.error === 'string' ? answer.body.error : undefined
  const words: string | undefined =
    typeof answer.body?.message === 'string' && answer.body.message ? answer.body.message : name
  let kind: FailureKind = (name ? ERROR_KINDS[name] : undefined) ?? 'rejected'
  if (answer.status === 401 && kind === 'rejected') kind = 'auth_expired'
  if (answer.status === 429) kind = 'rate_limited'
  if (answer.status >= 500) kind = 'transient'
  const wait = kind === 'rate_limited' || kind === 'transient' ? retryAfterSec(answer.headers, now) : undefined
  throw new XrpcFailure(kind, `${NETWORK}: ${words ?? `HTTP ${answer.status}`}`, name, wait)
}

/** A `NetworkFailure` that keeps the XRPC error name (RecordNotFound, RecordAlreadyExists...). */
export class XrpcFailure extends NetworkFailure {
  constructor(
    kind: FailureKind,
    message: string,
    readonly error: string | undefined,
    retryAfter?: number,
  ) {
    super(kind, message, retryAfter)
  }
}

export const isXrpcError = (err: unknown, ...names: string[]): boolean =>
  err instanceof XrpcFailure && err.error !== undefined && names.includes(err.error)

/** The `exp` of a JWT in epoch seconds (payload decoded, never verified), or null. */
export function jwtExpiry(jwt: string): number | null {
  const payload = jwt.split('.')[1]
  if (!payload) return null
  try {
    const json = JSON.parse(
      atob(
        payload
          .replace(/-/g, '+')
          .replace(/_/g, '/')
          .padEnd(Math.ceil(payload.length / 4) * 4, '='),
      ),
    )
    return typeof json.exp === 'number' ? json.exp : null
  } catch {
    return null
  }
}

export function sessionOf(credentials: Record<string, unknown>): Session | null {
  const s = credentials.session as Partial<Session> | undefined
  if (!s || typeof s.accessJwt !== 'string' || typeof s.refreshJwt !== 'string' || typeof s.did !== 'string')
    return null
  return {
    accessJwt: s.accessJwt,
    refreshJwt: s.refreshJwt,
    did: s.did,
    handle: typeof s.handle === 'string' ? s.handle : s.did,
    ...(s.pdsUrl ? { pdsUrl: s.pdsUrl } : {}),
  }
}

/** The session to call with; a missing one is a token problem the service renews. */
export function requireSession(credentials: Record<string, unknown>): Session {
  const session = sessionOf(credentials)
  if (!session) throw new NetworkFailure('auth_expired', `${NETWORK}: no session for this account yet.`)
  return session
}

const expiresSoon = (jwt: string, now: Date, marginSec: number) => {
  const exp = jwtExpiry(jwt)
  return exp === null || exp * 1000 - now.getTime() <= marginSec * 1000
}

function toSession(body: any): Session {
  const services: any[] = Array.isArray(body?.didDoc?.service) ? body.didDoc.service : []
  const pds = services.find((s) => typeof s?.id === 'string' && s.id.endsWith('#atproto_pds'))?.serviceEndpoint
  return {
    accessJwt: String(body.accessJwt),
    refreshJwt: String(body.refreshJwt),
    did: String(body.did),
    handle: String(body.handle ?? body.did),
    ...(typeof pds === 'string' ? { pdsUrl: pds } : {}),
  }
}

/** com.atproto.server.createSession with the app password (rate limited: only when needed). */
export async function createSession(
  fetchImpl: typeof fetch,
  baseUrl: string,
  credentials: Record<string, unknown>,
  now: Date,
): Promise<Session> {
  const body = await xrpc(
    fetchImpl,
    baseUrl,
    'com.atproto.server.createSession',
    { json: { identifier: credential(credentials, 'identifier'), password: credential(credentials, 'appPassword') } },
    now,
  )
  return toSession(body)
}

/** Renew with the refresh token; a refresh token the server no longer takes falls back to the app password. */
export const sessionRefresh: CredentialRefresh = {
  isDue(credentials, now) {
    const session = sessionOf(credentials)
    return !session || expiresSoon(session.accessJwt, now, ACCESS_MARGIN_SEC)
  },
  async refresh({ credentials, fetch: fetchImpl, baseUrl, now }) {
    try {
      const old = sessionOf(credentials)
      let session: Session | null = null
      if (old && !expiresSoon(old.refreshJwt, now, 0)) {
        try {
          session = toSession(
            await xrpc(
              fetchImpl,
              baseUrl,
              'com.atproto.server.refreshSession',
              { method: 'POST', token: old.refreshJwt },
              now,
            ),
          )
        } catch (err) {
          if (!(err instanceof NetworkFailure) || err.kind !== 'auth_expired') throw err
        }
      }
      session ??= await createSession(fetchImpl, baseUrl, credentials, now)
      return { status: 'refreshed', credentials: { ...credentials, session } }
    } catch (err) {
      return asFailedResult(err)
    }
  },
}

/**
 * The record key of part `index` of target `key`: a valid TID (13 base32-sortable characters, top
 * bit 0, as the post lexicon's `key: "tid"` asks) made from SHA-256 of the key and index, so every
 * retry of the same part names the same record and the server refuses a second one.
 */
export async function recordKeyFor(key: string, index: number): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${key}:${index}`)))
  let n = 0n
  for (let i = 0; i < 8; i++) n = (n << 8n) | BigInt(digest[i]!)
  n &= (1n << 63n) - 1n
  let out = ''
  for (let i = 0; i < 13; i++) {
    out = TID_ALPHABET[Number(n & 31n)]! + out
    n >>= 5n
  }
  return out
}

/** `at://did/collection/rkey` -> its parts. */
export function parseAtUri(uri: string): { repo: string; collection: string; rkey: string } {
  const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/?#]+)$/.exec(uri)
  if (!m) throw new NetworkFailure('rejected', `${NETWORK}: ${uri} is not a post of this network.`)
  return { repo: m[1]!, collection: m[2]!, rkey: m[3]! }
}
