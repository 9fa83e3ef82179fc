/**
 * NIP-01 over one socket per relay: EVENT answered by OK, REQ answered by EVENTs then EOSE (or
 * CLOSED). Each exchange has a deadline; a relay that does not answer in time, or whose socket
 * fails, is reported as such, never thrown: the caller weighs the relays' answers together.
 */
import type { Event, Filter } from 'nostr-tools'
import { OutboundRefused } from '../../outbound'
import { openChecked, type RelaySockets, type SocketLike } from '../../sockets'

/** One relay's answer to an EVENT: accepted, refused in its words, or no answer (timeout, socket error, refused address). */
export type RelayAnswer =
  | { relay: string; outcome: 'accepted'; message: string }
  | { relay: string; outcome: 'refused'; message: string }
  | { relay: string; outcome: 'silent'; message: string }

/** NIP-01: a relay that already has the event says so with this prefix; it is there, which is what we asked. */
const DUPLICATE = /^duplicate:/

interface Exchange<T> {
  /** Sent once the socket is open. */
  frames: unknown[][]
  /** Each parsed message; returns the result to finish with, or undefined to keep listening. */
  onMessage(message: unknown[]): T | undefined
  /** The result when the deadline passes or the socket fails, with words for why. */
  onSilence(why: string): T
}

/** Opens a socket to `relay`, runs one exchange, closes it. */
async function exchange<T>(sockets: RelaySockets, relay: string, deadlineMs: number, ex: Exchange<T>): Promise<T> {
  let socket: SocketLike
  try {
    socket = await openChecked(sockets, relay)
  } catch (err) {
    return ex.onSilence(err instanceof OutboundRefused ? err.message : 'it could not be reached')
  }
  return new Promise<T>((resolve) => {
    let done = false
    const finish = (value: T) => {
      if (done) return
      done = true
      clearTimeout(timer)
      try {
        socket.close()
      } catch {
        // Already closed.
      }
      resolve(value)
    }
    const timer = setTimeout(() => finish(ex.onSilence(`it did not answer within ${deadlineMs / 1000} s`)), deadlineMs)
    socket.addEventListener('open', () => {
      for (const frame of ex.frames) socket.send(JSON.stringify(frame))
    })
    socket.addEventListener('message', (event) => {
      const parsed = parseFrame(event.data)
      if (!parsed) return
      const result = ex.onMessage(parsed)
      if (result !== undefined) finish(result)
    })
    socket.addEventListener('error', () => finish(ex.onSilence('its connection failed')))
    socket.addEventListener('close', () => finish(ex.onSilence('it closed the connection')))
  })
}

function parseFrame(data: unknown): unknown[] | null {
  if (typeof data !== 'string') return null
  try {
    const value: unknown = JSON.parse(data)
    return Array.isArray(value) ? value : null
  } catch {
    return null
  }
}

/** Sends a signed event to one relay and waits for its OK. */
export function sendEvent(
  sockets: RelaySockets,
  relay: string,
  event: Event,
  deadlineMs: number,
): Promise<RelayAnswer> {
  return exchange<RelayAnswer>(sockets, relay, deadlineMs, {
    frames: [['EVENT', event]],
    onMessage([type, id, accepted, words]) {
      if (type !== 'OK' || id !== event.id) return undefined
      const message = typeof words === 'string' ? words : ''
      return accepted === true || DUPLICATE.test(message)
        ? { relay, outcome: 'accepted', message }
        : { relay, outcome: 'refused', message: message || 'refused without a reason' }
    },
    onSilence: (why) => ({ relay, outcome: 'silent', message: why }),
  })
}

/** What one relay holds for a filter: its events, and whether it said it sent them all (EOSE). */
export interface QueryAnswer {
  relay: string
  events: Event[]
  complete: boolean
  message: string
}

/** One REQ to one relay, collected until EOSE (or CLOSED, or the deadline). */
export function query(sockets: RelaySockets, relay: string, filter: Filter, deadlineMs: number): Promise<QueryAnswer> {
  const sub = `q${Math.random().toString(36).slice(2, 10)}`
  const events: Event[] = []
  return exchange<QueryAnswer>(sockets, relay, deadlineMs, {
    frames: [['REQ', sub, filter]],
    onMessage([type, id, payload]) {
      if (id !== sub) return undefined
      if (type === 'EVENT' && payload && typeof payload === 'object') events.push(payload as Event)
      if (type === 'EOSE') return { relay, events, complete: true, message: '' }
      if (type === 'CLOSED') return { relay, events, complete: false, message: String(payload ?? '') }
      return undefined
    },
    onSilence: (why) => ({ relay, events, complete: false, message: why }),
  })
}
