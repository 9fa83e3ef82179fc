/**
 * Replying to a comment or mention (`POST /v1/inbox/comments/{id}/reply`), at most once. The reply
 * is a row (`PENDING`) before anything is sent; its "call started" marker (`SENDING`,
 * `call_started_at`) is written before the network is called, as publishing does. With an
 * Idempotency-Key the row's id comes from the key, so a retry finds it: a sent reply answers as
 * before, and one whose call started without a recorded outcome (the process died mid-call) is
 * never sent again: it is `UNCONFIRMED`, 409 in words. Once sent, the reply joins the thread as a
 * comment of the account and the comment is `replied`, in one transaction.
 */
import {
  claimReplyCall,
  deleteRefusedReply,
  insertReplyOnce,
  insertSentReplyComment,
  markCommentReplied,
  markReplySent,
  selectReply,
  selectSentReplyComment,
  settleReplyWithout,
} from '../../db/queries/inbox-actions'
import type { InboxReplyRow } from '../../db/queries/inbox-read'
import { AppError } from '../../domain/errors'
import { checkReplyText } from '../../domain/reply-text'
import type { PlatformId } from '../../domain/vocabulary'
import { sha256Hex } from '../../lib/crypto'
import { randomBase62 } from '../../lib/ids'
import { NetworkFailure } from '../../networks/http'
import { CommentGone } from '../../networks/inbox-adapter'
import { commentRow } from './comments'
import { type InboxCall, type InboxDeps, onNetwork, prepareInboxCall } from './network-call'
import { toInboxCommentRecord, type InboxCommentRecord } from './record'
import { toInboxReply, type InboxReplyView } from './view'

export interface ReplyRequest {
  workspaceId: string
  commentId: string
  text: string
  now: Date
  /** The request's Idempotency-Key, when it has one. */
  idempotencyKey?: string | undefined
}

export type SentReplyView = InboxReplyView & { comment: InboxCommentRecord | null }

export async function replyToComment(deps: InboxDeps, request: ReplyRequest): Promise<SentReplyView> {
  const comment = await commentRow(deps.db, request.workspaceId, request.commentId)
  const violations = checkReplyText(comment.platform as PlatformId, request.text)
  if (violations.length > 0) {
    const first = violations[0]!
    throw new AppError(first.code, first.message, { details: violations.map(({ code: _c, ...d }) => d) })
  }
  const id = await replyIdFor(request)
  const earlier = id.derived ? await answerOfEarlier(deps, request, id.value) : null
  if (earlier) return earlier
  const call = await prepareInboxCall(deps, { ...request, action: 'reply' })
  const reply = await insertReplyOnce(deps.db, {
    id: id.value,
    workspaceId: request.workspaceId,
    commentId: comment.id,
    accountId: comment.accountId,
    text: request.text,
    status: 'PENDING',
    createdAt: request.now,
  })
  const claimed = await claimReplyCall(deps.db, reply.id, deps.clock.now())
  if (!claimed) return (await answerOfEarlier(deps, request, reply.id))!
  return send(deps, call, claimed)
}

/** The reply's id: from the Idempotency-Key (so a retry finds the same row), else a new one. */
async function replyIdFor(request: ReplyRequest): Promise<{ value: string; derived: boolean }> {
  if (request.idempotencyKey === undefined) return { value: `rpl_${randomBase62(22)}`, derived: false }
  const hash = await sha256Hex(`${request.workspaceId}\n${request.idempotencyKey}`)
  return { value: `rpl_${hash.slice(0, 32)}`, derived: true }
}

/** What a retry of a reply already made answers: its result, or why it is not sent again. Null: none made yet. */
async function answerOfEarlier(deps: InboxDeps, request: ReplyRequest, id: string): Promise<SentReplyView | null> {
  const row = await selectReply(deps.db, id)
  if (!row) return null
  if (row.commentId !== request.commentId || row.text !== request.text) {
    throw new AppError(
      'idempotency_key_reused',
      'This Idempotency-Key was used with a different reply; use a new key for a new reply.',
      { details: [{ path: 'header.Idempotency-Key' }] },
    )
  }
  if (row.status === 'SENT') return withComment(deps, row)
  if (row.status === 'PENDING' || row.status === 'FAILED') return null
  const unconfirmed =
    row.status === 'UNCONFIRMED'
      ? row
      : ((await settleReplyWithout(deps.db, row.id, {
          status: 'UNCONFIRMED',
          error: { code: 'unconfirmed', message: unconfirmedWords(row) },
        })) ?? row)
  if (unconfirmed.status === 'SENT') return withComment(deps, unconfirmed)
  throw unconfirmedError(unconfirmed)
}

async function send(deps: InboxDeps, call: InboxCall, reply: InboxReplyRow): Promise<SentReplyView> {
  let sent
  try {
    sent = await onNetwork(deps, call, () =>
      call.adapter.replyToComment!({ ...call.input, text: reply.text, idempotencyKey: reply.id }),
    )
  } catch (err) {
    const settled = await settleAfter(deps, reply, err)
    throw settled?.status === 'UNCONFIRMED' ? unconfirmedError(settled) : err
  }
  const now = deps.clock.now()
  const row = call.row
  const stored = await deps.db.transaction(async (tx) => {
    await markReplySent(tx, reply.id, { externalId: sent.externalId, permalink: sent.permalink, now })
    const own = await insertSentReplyComment(tx, {
      id: `cmt_${randomBase62(22)}`,
      workspaceId: row.workspaceId,
      accountId: row.accountId,
      platform: row.platform,
      kind: row.kind,
      targetId: row.targetId,
      postId: row.postId,
      externalId: sent.externalId,
      parentId: row.id,
      parentExternalId: row.externalId,
      postExternalId: row.postExternalId,
      authorName: call.accountName,
      text: reply.text,
      permalink: sent.permalink,
      fromAccount: true,
      state: 'read',
      readAt: now,
      createdAt: now,
      receivedAt: now,
      updatedAt: now,
    })
    await markCommentReplied(tx, row.workspaceId, row.id, now)
    return own
  })
  const final = await selectReply(deps.db, reply.id)
  return { ...toInboxReply(final!), comment: toInboxCommentRecord(stored) }
}

/** The reply after a failed call: removed when nothing reached the network, else UNCONFIRMED. */
async function settleAfter(deps: InboxDeps, reply: InboxReplyRow, err: unknown): Promise<InboxReplyRow | null> {
  const refused =
    (err instanceof AppError && err.code !== 'service_unavailable') ||
    err instanceof CommentGone ||
    (err instanceof NetworkFailure && err.kind !== 'unconfirmed')
  if (refused) {
    await deleteRefusedReply(deps.db, reply.id)
    return null
  }
  return settleReplyWithout(deps.db, reply.id, {
    status: 'UNCONFIRMED',
    error: { code: 'unconfirmed', message: unconfirmedWords(reply) },
  })
}

async function withComment(deps: InboxDeps, row: InboxReplyRow): Promise<SentReplyView> {
  const own = row.externalId ? await selectOwnReply(deps, row) : null
  return { ...toInboxReply(row), comment: own ? toInboxCommentRecord(own) : null }
}

async function selectOwnReply(deps: InboxDeps, row: InboxReplyRow) {
  const [own] = await selectSentReplyComment(deps.db, row)
  return own ?? null
}

function unconfirmedWords(reply: InboxReplyRow): string {
  const at = reply.callStartedAt?.toISOString() ?? 'an earlier request'
  return (
    `The reply's call to the network started at ${at}, but its outcome was never recorded: it may or may not ` +
    'be on the network. It is not sent again by itself: check the thread on the network, and if the reply is ' +
    'not there, send it again with a new Idempotency-Key.'
  )
}

function unconfirmedError(reply: InboxReplyRow): AppError {
  return new AppError('reply_unconfirmed', unconfirmedWords(reply), {
    details: [{ path: 'id', replyId: reply.id, status: 'UNCONFIRMED' }],
  })
}
