import type { Context } from 'hono'
import { getConnInfo } from '@hono/node-server/conninfo'

/** Workers: Cloudflare's own header, set at the edge and not forgeable by the client. */
export const workerClientIp = (c: Context): string => c.req.header('cf-connecting-ip') ?? 'unknown'

/**
 * Node: the socket's peer address; behind your own proxy (TRUST_PROXY), the right-most
 * `X-Forwarded-For` entry, the one that proxy appended.
 */
export function nodeClientIp(trustProxy: boolean): (c: Context) => string {
  return (c) => {
    if (trustProxy) {
      const forwarded = c.req
        .header('x-forwarded-for')
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean)
      const last = forwarded?.[forwarded.length - 1]
      if (last) return last
    }
    // app.request() (tests, benchmarks) has no socket: no bindings to read it from.
    if (!c.env) return 'unknown'
    try {
      return getConnInfo(c).remote.address ?? 'unknown'
    } catch {
      return 'unknown'
    }
  }
}
