/**
 * Who signs the account's events: its own key (PRIVATE_KEY, stored encrypted) with nostr-tools'
 * `finalizeEvent`, or the user's remote signer (REMOTE_SIGNER, NIP-46) through nostr-tools'
 * `BunkerSigner`, which talks to the signer over its relays. The signer's relays are user-given:
 * each is checked by the outbound guard before the pool may open a socket to it.
 */
import type { Event, EventTemplate } from 'nostr-tools'
import { AbstractSimplePool } from 'nostr-tools/abstract-pool'
import { BunkerSigner } from 'nostr-tools/nip46'
import { finalizeEvent, getPublicKey, verifyEvent } from 'nostr-tools/pure'
import { hexToBytes, normalizeURL } from 'nostr-tools/utils'
import { NetworkFailure } from '../../http'
import type { RelaySockets } from '../../sockets'

export interface Signer {
  pubkey: string
  sign(template: EventTemplate): Promise<Event>
  close(): void
}

export interface BunkerPointer {
  pubkey: string
  relays: string[]
  secret: string | null
}

const HEX64 = /^[0-9a-f]{64}$/

/** NIP-46: bunker://<signer's public key>?relay=wss://...&relay=...&secret=... */
export function parseBunkerUrl(text: string): BunkerPointer | null {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    return null
  }
  const pubkey = url.hostname.toLowerCase() || url.pathname.replace(/^\/+/, '').toLowerCase()
  if (url.protocol !== 'bunker:' || !HEX64.test(pubkey)) return null
  const relays = url.searchParams.getAll('relay').filter((r) => r !== '')
  return relays.length === 0 ? null : { pubkey, relays, secret: url.searchParams.get('secret') }
}

/** The pool's WebSocket "class": a constructor whose instances are our guarded runtime's sockets. */
function socketClass(sockets: RelaySockets, allowed: Set<string>): typeof WebSocket {
  function GuardedSocket(url: string) {
    if (!allowed.has(url)) throw new Error('relay not checked')
    const socket = sockets.open(url)
    // The pool may send a CLOSE after we closed the socket; the Worker's WebSocket throws there, `ws` does not.
    const send = socket.send.bind(socket)
    socket.send = (data: string) => {
      if (socket.readyState === 1) send(data)
    }
    return socket
  }
  return Object.assign(GuardedSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 }) as unknown as typeof WebSocket
}

/** Checks every relay with the outbound guard; the first refused one is a rejection in words. */
export async function checkRelays(sockets: RelaySockets, relays: string[], what: string): Promise<void> {
  for (const relay of relays) {
    const problem = await sockets.check(relay)
    if (problem !== null) throw new NetworkFailure('rejected', `${what} ${hostOf(relay)} ${problem}`)
  }
}

const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : 'address')

/** nostr-tools' pool, keeping to the checked relays, with our socket opener. */
function poolFor(sockets: RelaySockets, relays: string[], deadlineMs: number) {
  const allowed = new Set(relays.map((r) => new URL(r).href))
  for (const r of relays) {
    allowed.add(r)
    allowed.add(normalizeURL(r))
  }
  return new AbstractSimplePool({
    verifyEvent,
    websocketImplementation: socketClass(sockets, allowed),
    maxWaitForConnection: deadlineMs,
    allowConnectingToRelay: (url) => allowed.has(url),
  })
}

/** Rejects with a transient failure when `promise` takes longer than `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new NetworkFailure('transient', `${what} did not answer within ${ms / 1000} s`)),
      ms,
    )
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** A NIP-46 session as a client key the signer knows; `connect` is sent only when pairing (`pairing: true`). */
export async function openBunker(
  sockets: RelaySockets,
  pointer: BunkerPointer,
  clientKey: string,
  deadlineMs: number,
): Promise<{ signer: BunkerSigner; close(): void }> {
  await checkRelays(sockets, pointer.relays, 'The remote signer relay')
  const pool = poolFor(sockets, pointer.relays, deadlineMs)
  const signer = BunkerSigner.fromBunker(hexToBytes(clientKey), pointer, { pool })
  return {
    signer,
    close() {
      void signer.close()
      pool.close(pointer.relays)
    },
  }
}

/** The account's signer from its stored credentials. */
export async function signerFor(
  connection: string,
  credentials: Record<string, unknown>,
  sockets: RelaySockets,
  deadlineMs: number,
): Promise<Signer> {
  const pubkey = stringField(credentials, 'pubkey')
  if (connection === 'PRIVATE_KEY') {
    const key = hexToBytes(stringField(credentials, 'privateKey'))
    return { pubkey: getPublicKey(key), sign: async (t) => finalizeEvent(t, key), close() {} }
  }
  const pointer = {
    pubkey: stringField(credentials, 'bunkerPubkey'),
    relays: relaysOf(credentials, 'bunkerRelays'),
    secret: null,
  }
  const session = await openBunker(sockets, pointer, stringField(credentials, 'clientKey'), deadlineMs)
  return {
    pubkey,
    async sign(template) {
      const signed = await within(session.signer.signEvent(template), deadlineMs, 'The remote signer').catch((err) => {
        throw err instanceof NetworkFailure
          ? err
          : new NetworkFailure('rejected', `The remote signer refused to sign: ${words(err)}`)
      })
      if (signed.pubkey !== pubkey)
        throw new NetworkFailure(
          'rejected',
          'The remote signer signed with another key than the connected account’s: reconnect it.',
        )
      return signed
    },
    close: () => session.close(),
  }
}

export const words = (err: unknown): string =>
  typeof err === 'string' ? err : err instanceof Error ? err.message : 'no reason given'

function stringField(credentials: Record<string, unknown>, field: string): string {
  const value = credentials[field]
  if (typeof value !== 'string' || value === '')
    throw new NetworkFailure('rejected', `The account's credentials lack ${field}: reconnect the account.`)
  return value
}

export function relaysOf(credentials: Record<string, unknown>, field: string): string[] {
  const value = credentials[field]
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string'))
    throw new NetworkFailure('rejected', `The account's credentials lack ${field}: reconnect the account.`)
  return value as string[]
}
