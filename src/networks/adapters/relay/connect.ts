/**
 * Connecting an account: its key (PRIVATE_KEY: nsec or hex) or its remote signer (REMOTE_SIGNER:
 * a NIP-46 bunker:// URL, paired once with a client key of ours that the signer then knows), then
 * its relay list (NIP-65, kind 10002) read from the relays it gave and the signer's relays. The
 * write relays are stored; every relay is checked by the outbound guard before it is opened.
 */
import type { Event } from 'nostr-tools'
import { decode, npubEncode } from 'nostr-tools/nip19'
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure'
import { bytesToHex, hexToBytes } from 'nostr-tools/utils'
import type { VerifiedAccount, VerifyInput } from '../../adapter'
import { NetworkFailure } from '../../http'
import type { RelaySockets } from '../../sockets'
import { checkRelays, openBunker, parseBunkerUrl, within, words } from './signer'
import { query } from './wire'

/** NIP-65's replaceable relay list. */
const RELAY_LIST_KIND = 10002

/** The account's key as 64 hex characters, from an nsec (NIP-19) or hex; null when it is neither. */
export function privateKeyHex(text: string): string | null {
  const trimmed = text.trim()
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return trimmed.toLowerCase()
  try {
    const decoded = decode(trimmed)
    return decoded.type === 'nsec' ? bytesToHex(decoded.data) : null
  } catch {
    return null
  }
}

/** Relay URLs the user typed, separated by spaces, commas or new lines. */
export const relayListOf = (text: unknown): string[] =>
  typeof text === 'string' ? [...new Set(text.split(/[\s,]+/).filter((r) => r !== ''))] : []

/** NIP-65: `r` tags without a marker are read and write relays; "write" ones are write relays. */
function writeRelaysOf(list: Event): string[] {
  return list.tags
    .filter((t) => t[0] === 'r' && typeof t[1] === 'string' && (t[2] === undefined || t[2] === 'write'))
    .map((t) => t[1]!)
}

/** The newest relay list of `pubkey` on these relays, or null when none has one. */
async function relayList(sockets: RelaySockets, relays: string[], pubkey: string, deadlineMs: number) {
  const filter = { kinds: [RELAY_LIST_KIND], authors: [pubkey], limit: 1 }
  const answers = await Promise.all(relays.map((r) => query(sockets, r, filter, deadlineMs)))
  const lists = answers.flatMap((a) => a.events).filter((e) => e.pubkey === pubkey && e.kind === RELAY_LIST_KIND)
  return lists.sort((a, b) => b.created_at - a.created_at)[0] ?? null
}

/** The write relays: the account's NIP-65 list, else the relays given; each must pass the guard. */
async function writeRelays(
  sockets: RelaySockets,
  given: string[],
  readFrom: string[],
  pubkey: string,
  deadlineMs: number,
) {
  const list = await relayList(sockets, readFrom, pubkey, deadlineMs)
  const listed = list ? writeRelaysOf(list) : []
  const usable: string[] = []
  for (const relay of listed) if ((await sockets.check(relay)) === null) usable.push(relay)
  const relays = usable.length > 0 ? usable : given
  if (relays.length === 0)
    throw new NetworkFailure(
      'rejected',
      'No relay list (kind 10002) was found for this key, and no relays were given: give the relays to publish to.',
    )
  return relays
}

export async function verifyRelayAccount(
  input: VerifyInput,
  sockets: RelaySockets,
  deadlineMs: number,
): Promise<VerifiedAccount> {
  const given = relayListOf(input.credentials.relays)
  await checkRelays(sockets, given, 'The relay')
  if (input.connection === 'PRIVATE_KEY') {
    const key = privateKeyHex(String(input.credentials.privateKey ?? ''))
    if (!key) throw new NetworkFailure('rejected', 'The private key must be an nsec1… key or 64 hex characters.')
    const pubkey = getPublicKey(hexToBytes(key))
    const relays = await writeRelays(sockets, given, given, pubkey, deadlineMs)
    return {
      username: npubEncode(pubkey),
      externalId: pubkey,
      credentials: { privateKey: key, pubkey, writeRelays: relays },
    }
  }
  const pointer = parseBunkerUrl(String(input.credentials.bunkerUrl ?? ''))
  if (!pointer) throw new NetworkFailure('rejected', 'The bunker URL must be bunker://<public key>?relay=wss://…')
  const clientKey = bytesToHex(generateSecretKey())
  const session = await openBunker(sockets, pointer, clientKey, deadlineMs)
  let pubkey: string
  try {
    await within(session.signer.connect(), deadlineMs, 'The remote signer')
    pubkey = await within(session.signer.getPublicKey(), deadlineMs, 'The remote signer')
  } catch (err) {
    if (err instanceof NetworkFailure) throw err
    throw new NetworkFailure('rejected', `The remote signer refused the connection: ${words(err)}`)
  } finally {
    session.close()
  }
  const relays = await writeRelays(sockets, given, [...new Set([...given, ...pointer.relays])], pubkey, deadlineMs)
  return {
    username: npubEncode(pubkey),
    externalId: pubkey,
    credentials: { bunkerPubkey: pointer.pubkey, bunkerRelays: pointer.relays, clientKey, pubkey, writeRelays: relays },
  }
}
