/**
 * A fuzzed page request as it is sent: the world's ids in its path and fields, the session cookie and
 * CSRF token (or a wrong or missing one), the body in the request's encoding (multipart written out by
 * hand, so a broken part or a missing boundary reaches the server as sent).
 */
import { type PageRequest, Slot, type Value } from './fuzz-pages'

/** What the request carries from the world: ids by pool, the session's cookie and CSRF token, the public form token. */
export interface RenderContext {
  pick(pool: string, index: number): string
  session: { cookie: string; csrfToken: string }
  formToken: string
}

const BOUNDARY = 'fzBoundary'

function multipartText(fields: Array<[string, string]>, edit: PageRequest['multipartEdit']): string {
  const parts = fields.map(([name, value], i) => {
    const shownName = edit === 'bad-name' && i === 0 ? `${name}"; x="` : name
    const file = edit === 'file' && i === 0 ? '; filename="fuzz.jpg"\r\nContent-Type: image/jpeg' : ''
    return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${shownName}"${file}\r\n\r\n${value}\r\n`
  })
  const text = `${parts.join('')}--${BOUNDARY}--\r\n`
  return edit === 'truncate' ? text.slice(0, Math.floor(text.length / 2)) : text
}

function jsonText(fields: Array<[string, string]>, lists: string[]): string {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of fields) {
    const prev = out[name]
    out[name] = prev === undefined ? (lists.includes(name) ? [value] : value) : [prev, value].flat()
  }
  return JSON.stringify(out)
}

/** The address and init of a fuzzed request, its values resolved. */
export function renderPageRequest(req: PageRequest, ctx: RenderContext, ip: string) {
  const resolve = (v: Value) => (v instanceof Slot ? ctx.pick(v.pool, v.index) : v)
  const pathText = req.path.map((v) => (v instanceof Slot ? encodeURIComponent(resolve(v)) : v)).join('/')
  const query = new URLSearchParams(req.query.map(([k, v]) => [k, resolve(v)])).toString()
  const url = `/${pathText}${query ? `?${query}` : ''}`
  const headers: Record<string, string> = { 'x-forwarded-for': ip }
  const cookies: string[] = []
  const { route } = req
  const signedIn = req.signedIn && (route.family === 'dashboard' || route.path.startsWith('/app/oauth'))
  if (signedIn) cookies.push(ctx.session.cookie)
  const fields: Array<[string, string]> = req.fields.map(([k, v]) => [k, resolve(v)])
  const token = route.csrf === 'public' ? ctx.formToken : ctx.session.csrfToken
  const csrf = req.csrf === 'valid' ? token : req.csrf === 'wrong' ? 'x'.repeat(32) : null
  if (route.csrf === 'public') cookies.push(`sps_form=${ctx.formToken}`)
  if (cookies.length > 0) headers.cookie = cookies.join('; ')
  if (route.method === 'GET') return { url, init: { method: 'GET', headers } as RequestInit, text: '' }
  if (csrf !== null && route.csrf !== 'none' && route.csrf !== undefined) {
    if (route.json) headers['x-csrf-token'] = csrf
    else fields.unshift(['_csrf', csrf])
  }
  const form = new URLSearchParams(fields).toString()
  let text = form
  switch (req.encoding) {
    case 'urlencoded':
      headers['content-type'] = 'application/x-www-form-urlencoded'
      break
    case 'multipart':
      headers['content-type'] = `multipart/form-data; boundary=${BOUNDARY}`
      text = multipartText(fields, req.multipartEdit)
      break
    case 'multipart-no-boundary':
      headers['content-type'] = 'multipart/form-data'
      text = multipartText(fields, req.multipartEdit)
      break
    case 'json':
      headers['content-type'] = 'application/json'
      text = jsonText(fields, route.lists ?? ['accountIds', 'mediaIds', 'events'])
      break
    case 'text':
      headers['content-type'] = 'text/plain'
      break
    case 'garbage':
      headers['content-type'] = req.garbageType
      break
    case 'none':
      break
  }
  // Bytes, so that a body without a type gets none (a string body would be sent as text/plain).
  const body = new TextEncoder().encode(text)
  return { url, init: { method: 'POST', headers, body } as RequestInit, text }
}
