import { csrfToken } from './csrf'

/** What a same-origin request answered: the status and the JSON body (null when there was none or it was not JSON). */
export interface JsonAnswer<T> {
  ok: boolean
  status: number
  /** Seconds the server asks to wait (Retry-After), when it said. */
  retryAfter: number | null
  body: T | null
}

export interface PostOptions {
  /** A form's fields, sent as application/x-www-form-urlencoded. */
  form?: URLSearchParams
  /** A value sent as application/json. */
  json?: unknown
  /** Where the CSRF token is read from (the document by default). */
  csrfScope?: ParentNode
}

/** POSTs to a dashboard address with the session cookie and the CSRF header, asking for JSON. */
export async function postJson<T>(url: string, options: PostOptions): Promise<JsonAnswer<T>> {
  const headers: Record<string, string> = { 'X-CSRF-Token': csrfToken(options.csrfScope), Accept: 'application/json' }
  let body: BodyInit | undefined
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(options.json)
  } else {
    body = options.form
  }
  const response = await fetch(url, { method: 'POST', body, credentials: 'same-origin', headers })
  let parsed: T | null = null
  try {
    parsed = (await response.json()) as T
  } catch {
    parsed = null
  }
  const wait = Number(response.headers.get('Retry-After'))
  return {
    ok: response.ok,
    status: response.status,
    retryAfter: Number.isFinite(wait) && wait > 0 ? wait : null,
    body: parsed,
  }
}
