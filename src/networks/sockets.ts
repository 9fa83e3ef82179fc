/**
 * WebSocket connections for networks that speak over sockets instead of HTTP (the relay network:
 * Nostr relays). The runtime gives the opener: the global `WebSocket` in a Worker, the `ws`
 * package on Node (runtime/node-socket.ts), since Node 20 has no global WebSocket without a flag.
 * Every socket URL is user-given (an account's relays), so `createRelaySockets` puts the outbound
 * guard (outbound.ts) in front of it: a URL is checked before a socket is opened to it.
 */
import { checkOutboundUrl, OutboundRefused, type OutboundPolicy } from './outbound'

/** The part of the WHATWG WebSocket the adapters use (both the Worker's and `ws` have it). */
export interface SocketLike {
  readonly readyState: number
  send(data: string): void
  close(code?: number, reason?: string): void
  addEventListener(type: 'open' | 'close' | 'error' | 'message', listener: (event: { data?: unknown }) => void): void
}

/** Opens a socket to `url` at once (the handshake goes on in the background). */
export type OpenSocket = (url: string) => SocketLike

export interface RelaySockets {
  /** Why this socket URL may not be opened under the outbound policy, or null when it may. */
  check(url: string): Promise<string | null>
  /** Opens a socket to a URL `check` let through; without an opener (a runtime without one) it throws. */
  open(url: string): SocketLike
}

/** wss is checked as https, ws as http: the same rules, said in the socket's own words. */
export async function checkSocketUrl(url: string, policy: OutboundPolicy): Promise<string | null> {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'must be a URL'
  }
  const wanted = policy.allowPrivate ? 'a ws or wss address' : 'a public wss address'
  if (parsed.protocol !== 'wss:' && !(policy.allowPrivate && parsed.protocol === 'ws:')) return `must be ${wanted}`
  const asHttp = new URL(url.replace(/^ws/i, 'http'))
  const problem = await checkOutboundUrl(asHttp, policy)
  return problem === null ? null : problem.replace(/an http or https address|a public https address/, wanted)
}

export function createRelaySockets(open: OpenSocket | undefined, policy: OutboundPolicy): RelaySockets {
  return {
    check: (url) => checkSocketUrl(url, policy),
    open(url) {
      if (!open) throw new Error('This runtime has no WebSocket client')
      return open(url)
    },
  }
}

/** Checks `url`, then opens it; a refused address throws `OutboundRefused` naming only the host. */
export async function openChecked(sockets: RelaySockets, url: string): Promise<SocketLike> {
  const problem = await sockets.check(url)
  if (problem !== null) throw new OutboundRefused(`The relay ${hostOf(url)} was refused: it ${problem}.`)
  return sockets.open(url)
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host
  } catch {
    return 'address'
  }
}
