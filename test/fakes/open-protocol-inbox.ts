/**
 * The open-protocol fake's inbox side, from the lexicons: app.bsky.feed.getAuthorFeed (`limit`
 * 1..100, `cursor`, `filter=posts_no_replies`), app.bsky.feed.getPostThread (`depth`, the reply
 * tree, the root's `threadgate` view; a missing post is 400 `NotFound`),
 * app.bsky.notification.listNotifications (`reasons`, `limit` 1..100, `cursor`), like records,
 * threadgate records (getRecord / putRecord, `hiddenReplies`). Posts by other accounts live here.
 */
import { createHash } from 'node:crypto'
import type { FakeReply, FakeRequest, FakeRoute } from './fake-server'
import type { StoredRecord } from './open-protocol'

export interface OtherAuthor {
  did: string
  handle: string
  displayName: string
}
interface Authored extends StoredRecord {
  author: { did: string; handle: string; displayName?: string; avatar?: string }
}
interface Ctx {
  did: string
  handle: string
  records: Map<string, StoredRecord>
  counts: Map<string, Record<string, number | undefined>>
  authed: (nsid: string, h: (req: FakeRequest) => FakeReply) => (req: FakeRequest) => Promise<FakeReply>
}

const xerr = (status: number, error: string, message: string): FakeReply => ({ status, json: { error, message } })
const cidOf = (s: string) => `bafyrei${createHash('sha256').update(s).digest('hex').slice(0, 40)}`
const cursorOf = (n: number) => Buffer.from(String(n)).toString('base64url')
const offsetOf = (c: string | null) => (c ? Number(Buffer.from(c, 'base64url').toString()) : 0)
const path = (nsid: string) => `/xrpc/${nsid}`
/** A valid record key (TID alphabet) from a serial and a prefix letter. */
const tidOf = (prefix: string, n: number) =>
  `3${prefix}${[...n.toString(32).padStart(11, '0')].map((c) => '234567abcdefghijklmnopqrstuvwxyz'[Number.parseInt(c, 32)]).join('')}`
const GATE = 'app.bsky.feed.threadgate'

export function openProtocolInbox(ctx: Ctx) {
  const others: Authored[] = []
  const likes: StoredRecord[] = []
  const gates = new Map<string, StoredRecord>()
  let serial = 0
  const own = (): Authored[] =>
    [...ctx.records.values()].map((r) => ({ ...r, author: { did: ctx.did, handle: ctx.handle } }))
  const all = () => [...own(), ...others]
  const find = (uri: string) => all().find((r) => r.uri === uri)
  const view = (r: Authored) => ({
    uri: r.uri,
    cid: r.cid,
    author: r.author,
    record: r.value,
    indexedAt: r.value.createdAt,
    likeCount: likes.filter((l) => l.value.subject?.uri === r.uri).length,
    replyCount: 0,
    repostCount: 0,
    quoteCount: 0,
    ...ctx.counts.get(r.uri),
  })
  const newest = (a: Authored, b: Authored) => String(b.value.createdAt).localeCompare(String(a.value.createdAt))
  const limitOf = (req: FakeRequest) => {
    const limit = Number(req.query.get('limit') ?? 50)
    return Number.isInteger(limit) && limit >= 1 && limit <= 100 ? limit : null
  }
  const thread = (r: Authored): any => ({
    $type: 'app.bsky.feed.defs#threadViewPost',
    post: view(r),
    replies: all()
      .filter((x) => x.value.reply?.parent?.uri === r.uri)
      .map(thread),
  })

  const addOther = (author: OtherAuthor, text: string, createdAt: string, replyTo: string | null = null) => {
    const parent = replyTo ? find(replyTo)! : null
    const root = parent ? (parent.value.reply?.root ?? { uri: parent.uri, cid: parent.cid }) : null
    const rkey = tidOf('l', ++serial)
    const value = {
      $type: 'app.bsky.feed.post',
      text,
      createdAt,
      ...(parent ? { reply: { root, parent: { uri: parent.uri, cid: parent.cid } } } : {}),
    }
    const record: Authored = {
      uri: `at://${author.did}/app.bsky.feed.post/${rkey}`,
      cid: cidOf(`${author.did}${rkey}${text}`),
      rkey,
      value,
      author: { ...author, avatar: `https://cdn.bsky.app/img/avatar/${author.did}.jpg` },
    }
    others.push(record)
    return record
  }

  const routes: FakeRoute[] = [
    [
      'GET',
      path('app.bsky.feed.getAuthorFeed'),
      ctx.authed('app.bsky.feed.getAuthorFeed', (req) => {
        const limit = limitOf(req)
        if (limit === null) return xerr(400, 'InvalidRequest', 'limit must be between 1 and 100')
        if (req.query.get('actor') !== ctx.did && req.query.get('actor') !== ctx.handle)
          return xerr(400, 'InvalidRequest', 'Profile not found')
        const noReplies = req.query.get('filter') === 'posts_no_replies'
        const list = own()
          .filter((r) => r.value.$type === 'app.bsky.feed.post' && !(noReplies && r.value.reply))
          .sort(newest)
        const from = offsetOf(req.query.get('cursor'))
        const page = list.slice(from, from + limit)
        const more = from + limit < list.length
        return {
          json: { feed: page.map((r) => ({ post: view(r) })), ...(more ? { cursor: cursorOf(from + limit) } : {}) },
        }
      }),
    ],
    [
      'GET',
      path('app.bsky.feed.getPostThread'),
      ctx.authed('app.bsky.feed.getPostThread', (req) => {
        const uri = req.query.get('uri') ?? ''
        const r = find(uri)
        if (!r) return xerr(400, 'NotFound', `Post not found: ${uri}`)
        const gate = gates.get(r.rkey)
        const threadgate =
          r.author.did === ctx.did && gate ? { uri: gate.uri, cid: gate.cid, record: gate.value, lists: [] } : undefined
        return { json: { thread: thread(r), ...(threadgate ? { threadgate } : {}) } }
      }),
    ],
    [
      'GET',
      path('app.bsky.notification.listNotifications'),
      ctx.authed('app.bsky.notification.listNotifications', (req) => {
        const limit = limitOf(req)
        if (limit === null) return xerr(400, 'InvalidRequest', 'limit must be between 1 and 100')
        const reasons = req.query.getAll('reasons')
        const list = others
          .filter((r) => r.value.text.includes(`@${ctx.handle}`))
          .filter(() => !reasons.length || reasons.includes('mention'))
          .sort(newest)
        const from = offsetOf(req.query.get('cursor'))
        const page = list.slice(from, from + limit)
        const more = from + limit < list.length
        const notifications = page.map((r) => ({
          uri: r.uri,
          cid: r.cid,
          author: r.author,
          reason: 'mention',
          record: r.value,
          isRead: false,
          indexedAt: r.value.createdAt,
        }))
        return { json: { notifications, ...(more ? { cursor: cursorOf(from + limit) } : {}) } }
      }),
    ],
    [
      'POST',
      path('com.atproto.repo.putRecord'),
      ctx.authed('com.atproto.repo.putRecord', (req) => {
        const { repo, collection, rkey, record } = req.json()
        if (repo !== ctx.did) return xerr(400, 'InvalidRequest', 'Input/repo must be the authenticated account')
        if (collection !== GATE || record?.$type !== GATE) return xerr(400, 'InvalidRequest', 'Invalid record')
        const post = ctx.records.get(rkey)
        if (!post || record.post !== post.uri)
          return xerr(400, 'InvalidRequest', 'Invalid app.bsky.feed.threadgate record: record key must match the post')
        const stored = {
          uri: `at://${ctx.did}/${GATE}/${rkey}`,
          cid: cidOf(JSON.stringify(record)),
          rkey,
          value: record,
        }
        gates.set(rkey, stored)
        return { json: { uri: stored.uri, cid: stored.cid } }
      }),
    ],
  ]

  /** A like record (createRecord of app.bsky.feed.like), checked as the lexicon says. */
  const createLike = (record: any): FakeReply => {
    const subject = record?.subject
    if (record?.$type !== 'app.bsky.feed.like' || !subject?.uri || !subject?.cid)
      return xerr(400, 'InvalidRequest', 'Invalid app.bsky.feed.like record: Record/subject must be a strong ref')
    const rkey = tidOf('k', ++serial)
    const stored = { uri: `at://${ctx.did}/app.bsky.feed.like/${rkey}`, cid: cidOf(rkey), rkey, value: record }
    likes.push(stored)
    return { json: { uri: stored.uri, cid: stored.cid, validationStatus: 'valid' } }
  }
  const getGate = (rkey: string): FakeReply => {
    const gate = gates.get(rkey)
    return gate
      ? { json: { uri: gate.uri, cid: gate.cid, value: gate.value } }
      : xerr(400, 'RecordNotFound', `Could not locate record: at://${ctx.did}/${GATE}/${rkey}`)
  }
  return { routes, others, likes, gates, find, view, addOther, createLike, getGate }
}
