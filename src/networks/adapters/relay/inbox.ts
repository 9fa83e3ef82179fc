/**
 * The relay network's (Nostr) side of the inbox, all through the account's relays (REQ over
 * networks/sockets.ts, as publishing does): its notes (kind 1 by its key, replies left out, paged
 * by `until`), a note's replies (kind 1 with an `e` tag naming it, NIP-10 markers giving each
 * reply's parent), mentions (kind 1 with a `p` tag naming the key), a reply (a kind 1 with NIP-10
 * `root` and `reply` tags and the authors' `p` tags), a like (NIP-25: kind 7 `+` with `e`, `p`,
 * `k`) and deleting the account's own reply (NIP-09, kind 5). Relays keep no hidden replies. A note
 * that no relay has (each answering to the end of its stored events) is gone.
 */
import type { Event, EventTemplate, Filter } from 'nostr-tools'
import { npubEncode } from 'nostr-tools/nip19'
import type { NetworkAdapter } from '../../adapter'
import type { AccountCallInput, CommentActionInput, CommentPage, NetworkComment, ReplyInput } from '../../inbox-adapter'
import { CommentGone } from '../../inbox-adapter'
import { credential, deadlineOf, NetworkFailure } from '../../http'
import type { RelaySockets } from '../../sockets'
import { deletion, NOTE_KIND } from './events'
import { broadcast, type Ctx, permalinkOf } from './publish'
import { relaysOf, signerFor } from './signer'
import { query } from './wire'
import { NO_FIGURES } from '../../metrics'

const RELAY_ANSWER_MS = 10_000
/** Notes asked per REQ (relays cap what they send; a full page means there may be more). */
const PAGE = 100
const REACTION_KIND = 7
/** NIP-01 gives no wait with "rate-limited:"; this long before asking again. */
const RATE_LIMIT_WAIT_SEC = 60

const seconds = (d: Date) => Math.floor(d.getTime() / 1000)
const eTags = (e: Event) => e.tags.filter((t) => t[0] === 'e' && typeof t[1] === 'string')
const isReply = (e: Event) => eTags(e).some((t) => t[3] !== 'mention')

/** NIP-10: the root and the note answered (marked tags, else the positional convention). */
function threadOf(e: Event): { root: string | null; parent: string | null } {
  const tags = eTags(e).filter((t) => t[3] !== 'mention')
  const root = tags.find((t) => t[3] === 'root')?.[1] ?? tags[0]?.[1] ?? null
  const parent = tags.find((t) => t[3] === 'reply')?.[1] ?? (tags.length > 1 ? tags.at(-1)![1]! : root)
  return { root, parent }
}

/** The events matching `filter` on every relay, newest first; a relay's refusal in words. */
async function read(sockets: RelaySockets, input: AccountCallInput, filter: Filter) {
  const relays = relaysOf(input.credentials, 'writeRelays')
  const deadlineMs = deadlineOf(input.fetch, RELAY_ANSWER_MS)
  const answers = await Promise.all(relays.map((r) => query(sockets, r, filter, deadlineMs)))
  if (!answers.some((a) => a.complete)) {
    const said = answers.map((a) => `${a.relay}: ${a.message}`).join('; ')
    const limited = answers.some((a) => a.message.startsWith('rate-limited:'))
    throw new NetworkFailure(
      limited ? 'rate_limited' : 'transient',
      `RELAY_NET: no relay answered the request (${said})`,
      limited ? RATE_LIMIT_WAIT_SEC : undefined,
    )
  }
  const byId = new Map<string, Event>()
  for (const a of answers) for (const e of a.events) if (typeof e?.id === 'string') byId.set(e.id, e)
  return { events: [...byId.values()].sort((a, b) => b.created_at - a.created_at), relay: relays[0] }
}

/** `until` for the next page: below the oldest note of a full page. */
const nextUntil = (events: Event[]) => (events.length >= PAGE ? String(events.at(-1)!.created_at - 1) : null)
const untilOf = (cursor: string | null) => (cursor && /^\d+$/.test(cursor) ? { until: Number(cursor) } : {})

function commentOf(e: Event, me: string, relay: string | undefined, postId: string | null): NetworkComment {
  const { root, parent } = threadOf(e)
  const post = postId ?? root ?? e.id
  const npub = npubEncode(e.pubkey)
  return {
    externalId: e.id,
    parentExternalId: parent && parent !== post ? parent : null,
    postExternalId: post,
    author: { externalId: e.pubkey, name: `${npub.slice(0, 12)}…${npub.slice(-4)}`, handle: npub, avatarUrl: null },
    text: String(e.content ?? ''),
    createdAt: new Date(e.created_at * 1000),
    permalink: permalinkOf(e, relay),
    fromAccount: e.pubkey === me,
    hidden: null,
  }
}

export function relayInbox(
  socketsOf: () => RelaySockets,
): Required<
  Pick<
    NetworkAdapter,
    'listPosts' | 'listComments' | 'listMentions' | 'replyToComment' | 'deleteComment' | 'likeComment'
  >
> {
  /** The comment's note, from any relay; none has it: gone. */
  async function noteOf(input: CommentActionInput): Promise<Event> {
    const { events } = await read(socketsOf(), input, { ids: [input.comment.externalId], limit: 1 })
    const found = events.find((e) => e.id === input.comment.externalId)
    if (!found) throw new CommentGone('RELAY_NET: no relay has this note any more.')
    return found
  }
  /** Signs `template` with the account's key (or signer) and sends it to the write relays. */
  async function send(input: AccountCallInput, build: (pubkey: string) => EventTemplate): Promise<Event> {
    const sockets = socketsOf()
    const deadlineMs = deadlineOf(input.fetch, RELAY_ANSWER_MS)
    const relays = relaysOf(input.credentials, 'writeRelays')
    const signer = await signerFor(input.connection, input.credentials, sockets, deadlineMs)
    try {
      const event = await signer.sign(build(signer.pubkey))
      await broadcast({ relays, sockets, deadlineMs } as Ctx, event)
      return event
    } finally {
      signer.close()
    }
  }

  return {
    async listPosts(input) {
      const me = credential(input.credentials, 'pubkey')
      const filter = {
        kinds: [NOTE_KIND],
        authors: [me],
        since: seconds(input.since),
        limit: PAGE,
        ...untilOf(input.cursor),
      }
      const { events, relay } = await read(socketsOf(), input, filter)
      const posts = events
        .filter((e) => e.pubkey === me && !isReply(e))
        .map((e) => ({
          platformPostId: e.id,
          permalink: permalinkOf(e, relay),
          text: e.content,
          publishedAt: new Date(e.created_at * 1000),
          mediaUrls: e.tags
            .filter((t) => t[0] === 'imeta')
            .flatMap((t) => t.filter((f) => f.startsWith('url ')).map((f) => f.slice(4))),
          metrics: { ...NO_FIGURES },
        }))
      return { posts, nextCursor: nextUntil(events) }
    },

    async listComments(input): Promise<CommentPage> {
      const me = credential(input.credentials, 'pubkey')
      const postId = input.post.platformPostId
      const filter: Filter = { kinds: [NOTE_KIND], '#e': [postId], limit: PAGE, ...untilOf(input.cursor) }
      if (input.since) filter.since = seconds(input.since) + 1
      const { events, relay } = await read(socketsOf(), input, filter)
      const comments = events.filter((e) => e.id !== postId).map((e) => commentOf(e, me, relay, postId))
      return { comments, nextCursor: nextUntil(events) }
    },

    async listMentions(input): Promise<CommentPage> {
      const me = credential(input.credentials, 'pubkey')
      const filter: Filter = { kinds: [NOTE_KIND], '#p': [me], limit: PAGE, ...untilOf(input.cursor) }
      if (input.since) filter.since = seconds(input.since) + 1
      const { events, relay } = await read(socketsOf(), input, filter)
      const comments = events.filter((e) => e.pubkey !== me).map((e) => commentOf(e, me, relay, null))
      return { comments, nextCursor: nextUntil(events) }
    },

    async replyToComment(input: ReplyInput) {
      const note = await noteOf(input)
      const relay = relaysOf(input.credentials, 'writeRelays')[0]!
      const root = threadOf(note).root ?? note.id
      const rootTag = ['e', root, relay, 'root']
      const tags = root === note.id ? [rootTag] : [rootTag, ['e', note.id, relay, 'reply', note.pubkey]]
      const event = await send(input, (pubkey) => ({
        kind: NOTE_KIND,
        created_at: seconds(input.now),
        content: input.text,
        tags: [...tags, ...[...new Set([note.pubkey, pubkey])].map((p) => ['p', p])],
      }))
      return { externalId: event.id, permalink: permalinkOf(event, relay) }
    },

    async likeComment(input) {
      const note = await noteOf(input)
      const relay = relaysOf(input.credentials, 'writeRelays')[0]!
      await send(input, () => ({
        kind: REACTION_KIND,
        created_at: seconds(input.now),
        content: '+',
        tags: [
          ['e', note.id, relay],
          ['p', note.pubkey],
          ['k', String(note.kind)],
        ],
      }))
    },

    async deleteComment(input) {
      const note = await noteOf(input)
      if (note.pubkey !== credential(input.credentials, 'pubkey'))
        throw new NetworkFailure('rejected', "RELAY_NET: only the account's own replies can be deleted.")
      await send(input, () => deletion([note.id], input.now))
    },
  }
}
