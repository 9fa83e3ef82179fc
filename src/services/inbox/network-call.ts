/**
 * One inbox action on the comment's network (reply, hide, delete, like): what the network allows
 * (the rules registry's `inbox.<action>` and the adapter's method), the account's usable credentials,
 * and the network's refusals turned into the contract's errors. A comment the network no longer has
 * is marked gone and answered 409 `comment_gone`.
 */
import { markCommentGone } from '../../db/queries/inbox-actions'
import type { InboxCommentRow } from '../../db/queries/inbox-read'
import type { Deps } from '../../deps'
import { AppError } from '../../domain/errors'
import { rulesFor } from '../../domain/rules/index'
import type { INBOX_ACTIONS } from '../../domain/rules/schema-names'
import type { PlatformId } from '../../domain/vocabulary'
import type { AccountCallInput, CommentRef } from '../../networks/adapter'
import type { NetworkAdapter } from '../../networks/adapter'
import { NetworkFailure } from '../../networks/http'
import { CommentGone } from '../../networks/inbox-adapter'
import { getAccountRow } from '../accounts/accounts'
import { usableCredentials } from '../accounts/credentials'
import { commentRow } from './comments'

export type InboxAction = (typeof INBOX_ACTIONS)[number]
export type InboxDeps = Pick<Deps, 'db' | 'cipher' | 'networks' | 'clock'>

const METHOD_OF = {
  reply: 'replyToComment',
  hide: 'hideComment',
  delete: 'deleteComment',
  like: 'likeComment',
} as const satisfies Record<InboxAction, keyof NetworkAdapter>

const VERB_OF: Record<InboxAction, string> = {
  reply: 'replying to',
  hide: 'hiding',
  delete: 'deleting',
  like: 'liking',
}

export interface InboxCall {
  row: InboxCommentRow
  adapter: NetworkAdapter
  /** The account's name on the network: the author of what the service sends as it. */
  accountName: string
  /** What every adapter method takes: the account, its credentials, where to reach the network, and the comment. */
  input: AccountCallInput & { comment: CommentRef }
}

/**
 * The comment (404 when not the workspace's), after checking the action is one its network allows
 * (422 `action_not_supported` naming it), that the comment is still there (409 `comment_gone`) and
 * that its account can call the network (422 `account_not_connected`).
 */
export async function prepareInboxCall(
  deps: InboxDeps,
  input: { workspaceId: string; commentId: string; action: InboxAction },
): Promise<InboxCall> {
  const row = await commentRow(deps.db, input.workspaceId, input.commentId)
  const platform = row.platform as PlatformId
  const account = await getAccountRow(deps.db, input.workspaceId, row.accountId)
  const adapter = deps.networks.adapterFor(platform, account.connection)
  const allowed = rulesFor(platform).inbox?.[input.action] === true
  if (!allowed || !adapter || typeof adapter[METHOD_OF[input.action]] !== 'function') {
    throw new AppError(
      'action_not_supported',
      allowed
        ? `${capitalised(VERB_OF[input.action])} a comment is not available for ${platform} accounts connected through ${account.connection} in this version.`
        : `${platform} does not allow ${VERB_OF[input.action]} a comment through its API (see GET /v1/platforms, inbox.${input.action}).`,
      { details: [{ path: 'id', platform, action: input.action }] },
    )
  }
  if (row.goneAt !== null) throw goneError(row)
  if (account.status !== 'ACTIVE') throw notConnected(account.id, account.statusMessage)
  const usable = await usableCredentials(deps, account, adapter)
  if (!usable.ok) throw notConnected(account.id, usable.message)
  return {
    row,
    adapter,
    accountName: account.username,
    input: {
      accountId: account.id,
      connection: account.connection,
      credentials: usable.credentials,
      fetch: deps.networks.fetch,
      baseUrl: deps.networks.baseUrlFor(platform, account.connection, usable.credentials),
      now: deps.clock.now(),
      comment: {
        externalId: row.externalId,
        postExternalId: row.postExternalId,
        parentExternalId: row.parentExternalId,
      },
    },
  }
}

/**
 * Runs the network call; a comment gone meanwhile is marked gone (409), a network refusal becomes
 * the contract's error (`rate_limited` 429 with the network's wait, `account_not_connected`,
 * `invalid_option` in the network's words, `service_unavailable` when it did not answer).
 */
export async function onNetwork<T>(deps: InboxDeps, call: InboxCall, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof CommentGone) {
      await markCommentGone(deps.db, call.row.workspaceId, call.row.id, deps.clock.now())
      throw goneError(call.row)
    }
    throw inboxNetworkError(err, call.row)
  }
}

/** A network's refusal as the contract's error; anything else goes on up. */
export function inboxNetworkError(err: unknown, row: InboxCommentRow): unknown {
  if (!(err instanceof NetworkFailure)) return err
  const platform = row.platform
  if (err.kind === 'rate_limited')
    return new AppError('rate_limited', `${platform} asks to wait: ${err.message}`, {
      retryAfterSec: err.retryAfterSec ?? 60,
    })
  if (err.kind === 'auth_expired') return notConnected(row.accountId, err.message)
  if (err.kind === 'rejected')
    return new AppError('invalid_option', `${platform} refused it: ${err.message}`, {
      details: [{ path: 'id', platform }],
    })
  return new AppError('service_unavailable', `${platform} did not answer as expected: ${err.message} Try again.`, {
    retryAfterSec: err.retryAfterSec ?? 30,
  })
}

function goneError(row: InboxCommentRow): AppError {
  return new AppError(
    'comment_gone',
    `This comment is no longer on ${row.platform}: it (or the post it was on) was deleted there. It stays in the inbox marked gone.`,
    { details: [{ path: 'id', platform: row.platform }] },
  )
}

function notConnected(accountId: string, why: string | null): AppError {
  return new AppError(
    'account_not_connected',
    `Account ${accountId} cannot reach its network${why ? `: ${why}` : ''}. Reconnect it, then try again.`,
    { details: [{ path: 'id', accountId }] },
  )
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
