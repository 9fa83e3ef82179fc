/**
 * The one guard for outbound requests to addresses a user gave us (a federated account's
 * `instanceUrl`, a chat `webhookUrl`, a PDS `serviceUrl`; later: webhooks, media from a URL,
 * OAuth connect). Without it a user could make this service call loopback, a private network or
 * the cloud metadata endpoint (169.254.169.254) with an account's token: server-side request forgery.
 *
 * - Pure checks: `classifyIp` and `classifyHost` say what kind of address a literal or name is;
 *   only `public` is let through.
 * - `checkOutboundUrl` checks a URL: scheme (https; plain http only when private addresses are
 *   allowed), the host as written, then every address the name resolves to.
 * - `guardedFetch` wraps a fetch so every request (and every redirect hop, followed by hand with
 *   `redirect: 'manual'`, at most 5) is checked first; a refusal throws `OutboundRefused`, which
 *   `request()` (http.ts) turns into a `rejected` failure with its words.
 *
 * Runtimes differ in one point. On Node the runtime gives a `resolveHost` (node:dns `lookup`, all
 * addresses) and a name resolving to any non-public address is refused. Workers have no DNS API:
 * there only literals and names (`localhost`, `*.localhost`) are checked, and we rely on
 * Cloudflare's fetch, which does not reach private networks or the metadata endpoint. This module
 * imports nothing from Node, so it runs in the Worker; the resolver is injected.
 *
 * Known limit: the address is checked, then fetch resolves the name again (a name that changes its
 * answer in between, DNS rebinding, is not caught on Node).
 */

export type ResolveHost = (hostname: string) => Promise<string[]>

export interface OutboundPolicy {
  /** ALLOW_PRIVATE_URLS: private, loopback and link-local addresses and plain http are let through. */
  allowPrivate: boolean
  /** All addresses of a name (Node); absent on Workers, where only literals and names are checked. */
  resolveHost?: ResolveHost | undefined
}

/** A request refused by the guard; its message says why, naming the host but never the URL's path or query. */
export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OutboundRefused'
  }
}

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'cgnat'
  | 'multicast'
  | 'reserved'
  /** `localhost` and `*.localhost`. */
  | 'local-name'

export const MAX_REDIRECTS = 5

function parseIpv4(text: string): number[] | null {
  const parts = text.split('.')
  if (parts.length !== 4) return null
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : NaN))
  return bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255) ? bytes : null
}

/** The eight 16-bit groups of an IPv6 literal (an IPv4 tail allowed), or null. */
function parseIpv6(text: string): number[] | null {
  let s = text.replace(/%.*$/, '') // zone id
  if (!s.includes(':')) return null
  const lastColon = s.lastIndexOf(':')
  if (s.slice(lastColon + 1).includes('.')) {
    const v4 = parseIpv4(s.slice(lastColon + 1))
    if (!v4) return null
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16)
    s = `${s.slice(0, lastColon + 1)}${hex(v4[0]!, v4[1]!)}:${hex(v4[2]!, v4[3]!)}`
  }
  const groupsOf = (part: string) =>
    part === '' ? [] : part.split(':').map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN))
  const halves = s.split('::')
  let groups: number[]
  if (halves.length > 2) return null
  if (halves.length === 2) {
    const head = groupsOf(halves[0]!)
    const rest = groupsOf(halves[1]!)
    const fill = 8 - head.length - rest.length
    if (fill < 1) return null
    groups = [...head, ...Array<number>(fill).fill(0), ...rest]
  } else {
    groups = groupsOf(s)
  }
  return groups.length === 8 && groups.every((g) => Number.isInteger(g)) ? groups : null
}

function classifyV4([a, b, c]: number[]): AddressClass {
  if (a === 0) return 'unspecified'
  if (a === 127) return 'loopback'
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)) return 'private'
  if (a === 169 && b === 254) return 'link-local'
  if (a === 100 && b! >= 64 && b! <= 127) return 'cgnat'
  if (a! >= 224 && a! <= 239) return 'multicast'
  if (a! >= 240) return 'reserved' // 240/4 and the broadcast address
  if (
    (a === 192 && b === 0 && (c === 0 || c === 2)) || // IETF protocol assignments, TEST-NET-1
    (a === 192 && b === 88 && c === 99) || // 6to4 relay
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51 && c === 100) || // TEST-NET-2
    (a === 203 && b === 0 && c === 113) // TEST-NET-3
  )
    return 'reserved'
  return 'public'
}

function classifyV6(g: number[]): AddressClass {
  const v4Of = (hi: number, lo: number) => classifyV4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff])
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0)
  if (zeroUpTo(8)) return 'unspecified'
  if (zeroUpTo(7) && g[7] === 1) return 'loopback'
  if (zeroUpTo(5) && g[5] === 0xffff) return v4Of(g[6]!, g[7]!) // IPv4-mapped
  if (zeroUpTo(6)) return v4Of(g[6]!, g[7]!) // IPv4-compatible (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4Of(g[6]!, g[7]!) // NAT64 well-known prefix
  if (g[0] === 0x2002) return v4Of(g[1]!, g[2]!) // 6to4 embeds an IPv4 address
  const first = g[0]!
  if ((first & 0xfe00) === 0xfc00) return 'private' // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return 'link-local' // fe80::/10
  if ((first & 0xffc0) === 0xfec0) return 'private' // fec0::/10 site-local (deprecated)
  if ((first & 0xff00) === 0xff00) return 'multicast'
  if (first === 0x2001 && g[1] === 0x0db8) return 'reserved' // documentation
  if (first === 0x2001 && g[1]! < 0x0200) return 'reserved' // Teredo, benchmarking, ORCHID...
  if ((first & 0xe000) !== 0x2000) return 'reserved' // outside global unicast 2000::/3
  return 'public'
}

/** What kind of address an IP literal is (IPv6 with or without brackets), or null when it is not one. */
export function classifyIp(ip: string): AddressClass | null {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip
  const v4 = parseIpv4(bare)
  if (v4) return classifyV4(v4)
  const v6 = parseIpv6(bare)
  return v6 ? classifyV6(v6) : null
}

/**
 * What a URL's hostname is without asking DNS: an IP literal's class, `local-name` for
 * `localhost` and `*.localhost`, or null for any other name (to be resolved where DNS exists).
 */
export function classifyHost(hostname: string): AddressClass | null {
  const host = hostname.toLowerCase().replace(/\.$/, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return 'local-name'
  return classifyIp(host)
}

const describe = (cls: AddressClass) =>
  cls === 'local-name' ? 'a local name' : cls === 'unspecified' ? 'an unspecified address' : `a ${cls} address`

/**
 * Why this URL may not be called under the policy (words to follow a field's name, such as
 * "must be a public https address (127.0.0.1 is a loopback address)"), or null when it may. A name
 * that does not resolve is not refused here: the request fails on its own as unreachable.
 */
export async function checkOutboundUrl(url: string | URL, policy: OutboundPolicy): Promise<string | null> {
  let parsed: URL
  try {
    parsed = typeof url === 'string' ? new URL(url) : url
  } catch {
    return 'must be a URL'
  }
  const wanted = policy.allowPrivate ? 'an http or https address' : 'a public https address'
  const scheme = parsed.protocol
  if (scheme !== 'https:' && !(policy.allowPrivate && scheme === 'http:')) return `must be ${wanted}`
  if (policy.allowPrivate) return null
  const host = parsed.hostname
  const literal = classifyHost(host)
  if (literal !== null) return literal === 'public' ? null : `must be ${wanted} (${host} is ${describe(literal)})`
  if (!policy.resolveHost) return null
  let addresses: string[]
  try {
    addresses = await policy.resolveHost(host)
  } catch {
    return null
  }
  for (const address of addresses) {
    const cls = classifyIp(address) ?? 'reserved'
    if (cls !== 'public') return `must be ${wanted} (${host} resolves to ${address}, ${describe(cls)})`
  }
  return null
}

export interface GuardOptions {
  /** Origins the operator configured (the networks' API origins, our own storage): not checked. */
  trusted?: (url: URL) => boolean
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/**
 * `fetchImpl` with every request checked by `checkOutboundUrl` first, redirects followed by hand
 * (each Location checked, at most `MAX_REDIRECTS`). With private addresses allowed nothing is
 * checked, but redirects are still followed by hand, so a redirect loop ends at the same limit. A
 * refusal throws `OutboundRefused`.
 */
export function guardedFetch(
  fetchImpl: typeof fetch,
  policy: OutboundPolicy,
  options: GuardOptions = {},
): typeof fetch {
  const trusted = options.trusted ?? (() => false)
  const check = async (url: URL) => {
    // Private addresses allowed: nothing to check, but redirects are still followed by hand (a loop ends).
    if (policy.allowPrivate || trusted(url)) return
    const problem = await checkOutboundUrl(url, policy)
    if (problem) throw new OutboundRefused(`The address ${url.hostname} was refused: it ${problem}.`)
  }
  const guarded = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    if (input instanceof Request) {
      // A Request's body cannot be replayed: it is checked, and a redirect is refused (or handed back unfollowed).
      await check(new URL(input.url))
      const response = await fetchImpl(input, { ...init, redirect: 'manual' })
      if (REDIRECTS.has(response.status) && response.headers.has('location')) {
        // A caller that asked for the redirect itself (a webhook attempt records it) gets it, unfollowed.
        if (input.redirect === 'manual') return response
        await response.body?.cancel()
        throw new OutboundRefused(
          `The address ${new URL(input.url).hostname} answered with a redirect, which is refused.`,
        )
      }
      return response
    }
    let url = new URL(String(input))
    let current: RequestInit = { ...init }
    for (let hop = 0; ; hop++) {
      await check(url)
      const response = await fetchImpl(url, { ...current, redirect: 'manual' })
      const location = response.headers.get('location')
      if (!REDIRECTS.has(response.status) || location === null) return response
      await response.body?.cancel()
      if (hop >= MAX_REDIRECTS)
        throw new OutboundRefused(`The address ${url.hostname} redirected more than ${MAX_REDIRECTS} times.`)
      const method = (current.method ?? 'GET').toUpperCase()
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        const headers = new Headers(current.headers)
        headers.delete('content-type')
        headers.delete('content-length')
        current = { ...current, method: method === 'HEAD' ? 'HEAD' : 'GET', body: null, headers }
      }
      const next = new URL(location, url)
      if (next.origin !== url.origin) {
        // Credentials meant for one host are not handed to another.
        const headers = new Headers(current.headers)
        headers.delete('authorization')
        headers.delete('cookie')
        current = { ...current, headers }
      }
      url = next
    }
  }
  return guarded as typeof fetch
}
