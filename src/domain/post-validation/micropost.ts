/** `replyToMicropostId` / `quoteMicropostId`: a post id, or the URL of a post on the microblog network. */

/** The network's post ids are unsigned 64-bit integers: at most 20 decimal digits. */
const POST_ID = /^\d{1,20}$/
const HOSTS: readonly string[] = ['x.com', 'twitter.com']

/**
 * `123`, `https://x.com/<user>/status/123`, `twitter.com/<user>/status/123?s=20`,
 * `https://mobile.twitter.com/i/web/status/123` -> `"123"`; anything else -> null.
 */
export function micropostIdFrom(idOrUrl: string): string | null {
  const value = idOrUrl.trim()
  if (POST_ID.test(value)) return value
  let url: URL
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  if (url.username !== '' || url.password !== '' || url.port !== '') return null
  const host = url.hostname.toLowerCase().replace(/^(www|mobile|m)\./, '')
  if (!HOSTS.includes(host)) return null
  const segments = url.pathname.split('/').filter((s) => s !== '')
  const at = segments.findIndex((s) => s === 'status' || s === 'statuses')
  if (at < 1) return null // `/status/123` names no account
  const id = segments[at + 1]
  return id !== undefined && POST_ID.test(id) ? id : null
}
