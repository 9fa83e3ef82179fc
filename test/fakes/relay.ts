/**
 * A loopback Nostr relay following NIP-01 over a `ws` server: EVENT answered by OK after the
 * signature is verified (a duplicate answered OK true "duplicate:"), REQ answered by the stored
 * events matching its filters then EOSE, and live events to open subscriptions afterwards.
 * Test switches: a refusal ("blocked: …") for every EVENT, and a stall (no answer at all).
 * `bunker` adds a NIP-46 remote signer listening on this relay: it answers connect (checking the
 * secret), get_public_key and sign_event requests (kind 24133, NIP-44 encrypted) with the user's key.
 */
import type { AddressInfo } from 'node:net'
import type { Event, Filter } from 'nostr-tools'
import { getConversationKey, decrypt, encrypt } from 'nostr-tools/nip44'
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from 'nostr-tools/pure'
import { matchFilters } from 'nostr-tools/filter'
import { WebSocket, WebSocketServer } from 'ws'

export interface RelayFake {
  url: string
  events: Event[]
  /** Every EVENT frame received (duplicates included). */
  received: Event[]
  refuse(message: string | null): void
  /** Every REQ is closed with this (`rate-limited: …`), every EVENT refused with it; null: served again. */
  rateLimit(message: string | null): void
  stall(on: boolean): void
  close(): Promise<void>
}

interface Sub {
  socket: WebSocket
  id: string
  filters: Filter[]
}

export async function startRelayFake(
  options: { onEvent?: (event: Event, relay: RelayFake) => void } = {},
): Promise<RelayFake> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  const subs: Sub[] = []
  let refusal: string | null = null
  let stalled = false
  let rateLimited: string | null = null
  const fake: RelayFake = {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    events: [],
    received: [],
    refuse: (message) => {
      refusal = message
    },
    rateLimit: (message) => {
      rateLimited = message
    },
    stall: (on) => {
      stalled = on
    },
    close: () =>
      new Promise((resolve) => {
        for (const client of server.clients) client.terminate()
        server.close(() => resolve())
      }),
  }
  /** Stores an event and hands it to the open subscriptions it matches. */
  const store = (event: Event) => {
    fake.events.push(event)
    for (const sub of subs)
      if (matchFilters(sub.filters, event)) sub.socket.send(JSON.stringify(['EVENT', sub.id, event]))
  }
  const onEventFrame = (socket: WebSocket, event: Event) => {
    fake.received.push(event)
    const ok = (accepted: boolean, message: string) => socket.send(JSON.stringify(['OK', event.id, accepted, message]))
    if (!event || typeof event.id !== 'string' || !verifyEvent(event)) return ok(false, 'invalid: bad signature or id')
    if (fake.events.some((e) => e.id === event.id)) return ok(true, 'duplicate: already have this event')
    if (refusal !== null) return ok(false, refusal)
    if (rateLimited !== null) return ok(false, rateLimited)
    store(event)
    // NIP-09: a deletion request removes the author's own events it names.
    if (event.kind === 5)
      for (const id of event.tags.filter((t) => t[0] === 'e').map((t) => t[1])) {
        const i = fake.events.findIndex((e) => e.id === id && e.pubkey === event.pubkey)
        if (i >= 0) fake.events.splice(i, 1)
      }
    ok(true, '')
    options.onEvent?.(event, fake)
  }
  server.on('connection', (socket) => {
    socket.on('message', (data) => {
      if (stalled) return
      let frame: unknown
      try {
        frame = JSON.parse(String(data))
      } catch {
        return socket.send(JSON.stringify(['NOTICE', 'invalid: not JSON']))
      }
      if (!Array.isArray(frame)) return
      const [type, ...rest] = frame as [string, ...unknown[]]
      if (type === 'EVENT') return onEventFrame(socket, rest[0] as Event)
      if (type === 'REQ') {
        const [id, ...filters] = rest as [string, ...Filter[]]
        if (rateLimited !== null) return socket.send(JSON.stringify(['CLOSED', id, rateLimited]))
        const limited = filters.map((f) => f.limit)
        const matching = fake.events.filter((e) =>
          matchFilters(
            filters.map(({ limit: _l, ...f }) => f),
            e,
          ),
        )
        const max = limited.every((l) => typeof l === 'number') ? Math.max(...(limited as number[])) : Infinity
        for (const e of matching.sort((a, b) => b.created_at - a.created_at).slice(0, max))
          socket.send(JSON.stringify(['EVENT', id, e]))
        socket.send(JSON.stringify(['EOSE', id]))
        subs.push({ socket, id, filters: filters.map(({ limit: _l, ...f }) => f) })
        return
      }
      if (type === 'CLOSE') {
        const i = subs.findIndex((s) => s.socket === socket && s.id === rest[0])
        if (i >= 0) subs.splice(i, 1)
      }
    })
    socket.on('close', () => {
      for (let i = subs.length - 1; i >= 0; i--) if (subs[i]!.socket === socket) subs.splice(i, 1)
    })
  })
  return fake
}

/** The user's key, the signer's own key, and the bunker:// URL that pairs with them. */
export interface BunkerFake {
  relay: RelayFake
  userKey: Uint8Array
  userPubkey: string
  bunkerPubkey: string
  secret: string
  url: string
  /** Clients that paired (connect with the right secret). */
  clients: Set<string>
  /** sign_event requests answered. */
  signed: number
  /** Refuse sign_event with these words (null: sign). */
  refuseSigning(words: string | null): void
}

/** A NIP-46 remote signer answering over its own fake relay. */
export async function startBunkerFake(userKey: Uint8Array = generateSecretKey()): Promise<BunkerFake> {
  const bunkerKey = generateSecretKey()
  const bunkerPubkey = getPublicKey(bunkerKey)
  let refusal: string | null = null
  const bunker = {
    userKey,
    userPubkey: getPublicKey(userKey),
    bunkerPubkey,
    secret: 'pairing-secret-1',
    clients: new Set<string>(),
    signed: 0,
    refuseSigning: (words: string | null) => {
      refusal = words
    },
  }
  const answer = (request: { id: string; method: string; params: string[] }, client: string) => {
    if (request.method === 'connect') {
      if (request.params[1] !== bunker.secret) return { id: request.id, error: 'wrong secret' }
      bunker.clients.add(client)
      return { id: request.id, result: 'ack' }
    }
    if (!bunker.clients.has(client)) return { id: request.id, error: 'unknown client: connect first' }
    if (request.method === 'get_public_key') return { id: request.id, result: bunker.userPubkey }
    if (request.method === 'ping') return { id: request.id, result: 'pong' }
    if (request.method === 'sign_event') {
      if (refusal !== null) return { id: request.id, error: refusal }
      bunker.signed++
      return { id: request.id, result: JSON.stringify(finalizeEvent(JSON.parse(request.params[0]!), userKey)) }
    }
    return { id: request.id, error: `unsupported method ${request.method}` }
  }
  const relay = await startRelayFake({
    onEvent(event, relayFake) {
      if (event.kind !== 24133 || !event.tags.some((t) => t[0] === 'p' && t[1] === bunkerPubkey)) return
      const key = getConversationKey(bunkerKey, event.pubkey)
      const response = answer(JSON.parse(decrypt(event.content, key)), event.pubkey)
      const reply = finalizeEvent(
        {
          kind: 24133,
          created_at: Math.floor(Date.now() / 1000),
          tags: [['p', event.pubkey]],
          content: encrypt(JSON.stringify(response), key),
        },
        bunkerKey,
      )
      // Answered through the relay, as a signer that is itself a client of it.
      const socket = new WebSocket(relayFake.url)
      socket.on('open', () => {
        socket.send(JSON.stringify(['EVENT', reply]))
        socket.on('message', () => socket.close())
      })
    },
  })
  return Object.assign(bunker, {
    relay,
    url: `bunker://${bunkerPubkey}?relay=${encodeURIComponent(relay.url)}&secret=${bunker.secret}`,
  })
}
