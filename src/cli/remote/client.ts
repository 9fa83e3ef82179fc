import { CliError } from '../args'
import { EXIT, exitCodeOfStatus } from '../exit-codes'

/** An answer of the API: its status, its body as sent, and that body parsed (null when none or not JSON). */
export interface ApiAnswer {
  status: number
  text: string
  json: unknown
}

export interface ApiRequest {
  body?: unknown
  query?: Record<string, string | undefined>
  headers?: Record<string, string>
}

export interface ApiClient {
  /** The server's base URL, without a trailing slash. */
  readonly url: string
  /** The answer of a 2xx; any other status or no answer at all is a CliError with its exit code. */
  request(method: string, path: string, init?: ApiRequest): Promise<ApiAnswer>
  /** The raw response of a GET (a stream); a failed connection is a CliError, a status is the caller's. */
  open(path: string, init: OpenRequest): Promise<Response>
}

export interface OpenRequest {
  query?: ApiRequest['query']
  headers?: Record<string, string>
  signal?: AbortSignal
}

const REQUEST_TIMEOUT_MS = 30_000

/** `error.message` of the contract's error body, with its code, details and request id. */
export function apiErrorMessage(status: number, text: string): string {
  let body: { error?: { code?: string; message?: string; details?: unknown; requestId?: string } } | null = null
  try {
    body = JSON.parse(text)
  } catch {
    body = null
  }
  const error = body?.error
  if (!error?.message) return `the server answered ${status}${text ? `: ${text.slice(0, 200)}` : ''}`
  const lines = [`${error.message} (${status}${error.code ? ` ${error.code}` : ''})`]
  if (Array.isArray(error.details)) {
    for (const d of error.details as Array<{ path?: string; message?: string }>)
      lines.push(`  ${d.path ? `${d.path}: ` : ''}${d.message ?? JSON.stringify(d)}`)
  }
  if (error.requestId) lines.push(`  requestId: ${error.requestId}`)
  return lines.join('\n')
}

/** A fetch that failed before any answer: the server is unavailable (exit 5), in words. */
export function unreachable(url: string, err: unknown): CliError {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } }
  const why =
    e.name === 'TimeoutError'
      ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`
      : (e.cause?.code ?? e.cause?.message ?? e.message ?? 'unknown error')
  return new CliError(`cannot reach ${url}: ${why}`, EXIT.UNAVAILABLE)
}

export function createApiClient(options: { url: string; token: string }): ApiClient {
  const url = options.url.replace(/\/+$/, '')
  const authorization = `Bearer ${options.token}`
  const target = (path: string, query?: ApiRequest['query']) => {
    const u = new URL(`${url}${path}`)
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, v)
    return u
  }
  return {
    url,
    async request(method, path, init = {}) {
      const headers: Record<string, string> = { authorization, accept: 'application/json', ...init.headers }
      if (init.body !== undefined) headers['content-type'] = 'application/json'
      let res: Response
      let text: string
      try {
        res = await fetch(target(path, init.query), {
          method,
          headers,
          ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        })
        text = await res.text()
      } catch (err) {
        throw unreachable(url, err)
      }
      if (!res.ok) throw new CliError(apiErrorMessage(res.status, text), exitCodeOfStatus(res.status))
      let json: unknown = null
      try {
        json = text ? JSON.parse(text) : null
      } catch {
        json = null
      }
      return { status: res.status, text, json }
    },
    async open(path, init) {
      try {
        return await fetch(target(path, init.query), {
          headers: { authorization, ...init.headers },
          ...(init.signal ? { signal: init.signal } : {}),
        })
      } catch (err) {
        throw unreachable(url, err)
      }
    },
  }
}
