/**
 * The open-protocol network's (Bluesky) inbox actions, all records in the account's repository:
 * a reply (an app.bsky.feed.post with `reply.root` and `reply.parent` strong refs, under a record
 * key made from the reply's idempotency key, so a retry finds the record instead of a second one),
 * a like (app.bsky.feed.like), hiding (the root post's app.bsky.feed.threadgate `hiddenReplies`,
 * only on the account's own posts) and deleting the account's own reply (deleteRecord).
 */
import type { CommentActionInput, HideCommentInput, ReplyInput, SentReply } from '../../inbox-adapter'
import { CommentGone } from '../../inbox-adapter'
import { createdId, NetworkFailure } from '../../http'
import { facetsOf } from './facets'
import { call, permalinkOf } from './inbox'
import { isXrpcError, NETWORK, parseAtUri, recordKeyFor, requireSession } from './xrpc'

const POST = 'app.bsky.feed.post'
const LIKE = 'app.bsky.feed.like'
const GATE = 'app.bsky.feed.threadgate'

interface StrongRef {
  uri: string
  cid: string
}

/** The comment's own ref and its thread's root ref, from its post view. */
async function refsOf(input: CommentActionInput): Promise<{ parent: StrongRef; root: StrongRef }> {
  const answer = await call(input, 'app.bsky.feed.getPosts', { params: { uris: [input.comment.externalId] } })
  const view = (answer.posts ?? []).find((p: any) => p?.uri === input.comment.externalId)
  if (!view?.cid) throw new CommentGone(`${NETWORK}: the reply no longer exists.`)
  const parent = { uri: String(view.uri), cid: String(view.cid) }
  const root = view.record?.reply?.root
  return { parent, root: root?.uri && root?.cid ? { uri: String(root.uri), cid: String(root.cid) } : parent }
}

export async function replyToComment(input: ReplyInput): Promise<SentReply> {
  const session = requireSession(input.credentials)
  const refs = await refsOf(input)
  const rkey = await recordKeyFor(input.idempotencyKey, 0)
  const facets = facetsOf(input.text, new Map())
  const record = {
    $type: POST,
    text: input.text,
    createdAt: input.now.toISOString(),
    reply: refs,
    ...(facets.length ? { facets } : {}),
  }
  try {
    const created = await call(input, 'com.atproto.repo.createRecord', {
      json: { repo: session.did, collection: POST, rkey, record },
    })
    const uri = createdId(created?.uri, NETWORK, created, 'reply')
    return { externalId: uri, permalink: permalinkOf(uri, session.handle) }
  } catch (err) {
    // The same idempotency key made this record already (an answer lost earlier): it is the reply.
    if (!isXrpcError(err, 'RecordAlreadyExists')) throw err
    const uri = `at://${session.did}/${POST}/${rkey}`
    return { externalId: uri, permalink: permalinkOf(uri, session.handle) }
  }
}

export async function likeComment(input: CommentActionInput): Promise<void> {
  const session = requireSession(input.credentials)
  const { parent } = await refsOf(input)
  await call(input, 'com.atproto.repo.createRecord', {
    json: {
      repo: session.did,
      collection: LIKE,
      record: { $type: LIKE, subject: parent, createdAt: input.now.toISOString() },
    },
  })
}

export async function deleteComment(input: CommentActionInput): Promise<void> {
  const session = requireSession(input.credentials)
  const at = parseAtUri(input.comment.externalId)
  if (at.repo !== session.did)
    throw new NetworkFailure(
      'rejected',
      `${NETWORK}: only the account's own replies can be deleted; hide this one instead.`,
    )
  await refsOf(input)
  await call(input, 'com.atproto.repo.deleteRecord', {
    json: { repo: session.did, collection: at.collection, rkey: at.rkey },
  })
}

/** The root post's threadgate with this reply added to (or taken from) `hiddenReplies`, other settings kept. */
export async function hideComment(input: HideCommentInput): Promise<void> {
  const session = requireSession(input.credentials)
  const { root } = await refsOf(input)
  const at = parseAtUri(root.uri)
  if (at.repo !== session.did)
    throw new NetworkFailure('rejected', `${NETWORK}: only replies in threads the account started can be hidden.`)
  let gate: Record<string, unknown> = { $type: GATE, post: root.uri, createdAt: input.now.toISOString() }
  try {
    const found = await call(input, 'com.atproto.repo.getRecord', {
      params: { repo: session.did, collection: GATE, rkey: at.rkey },
    })
    if (found?.value) gate = found.value
  } catch (err) {
    // No threadgate yet: one is made, allowing replies as before (no `allow` field).
    if (!(err instanceof CommentGone)) throw err
  }
  const hidden = new Set<string>(Array.isArray(gate.hiddenReplies) ? (gate.hiddenReplies as string[]) : [])
  if (input.hidden) hidden.add(input.comment.externalId)
  else hidden.delete(input.comment.externalId)
  await call(input, 'com.atproto.repo.putRecord', {
    json: { repo: session.did, collection: GATE, rkey: at.rkey, record: { ...gate, hiddenReplies: [...hidden] } },
  })
}
