/**
 * The checks of `POST /v1/posts`, in the order create runs them, shared by create and the dry run
 * (`POST /v1/posts/validate`), so both refuse exactly the same bodies with the same errors:
 * 1. `resolveCreate`: the body's accounts and media, from this workspace only (422 naming each
 *    id that is not in it, exactly as for another workspace's ids: nothing about them leaks), and
 *    unless it is a draft, every account able to publish (422 `account_not_connected` naming an
 *    EXPIRED or DISCONNECTED one);
 * 2. `assertCreatable`: every rule of the registry, then the pinboard boards and the destinations;
 * 3. `admitCreate`, inside the write's transaction: approval (where it is required, only a draft
 *    may be created: 409 `approval_required`), the plan's monthly cap and where the action puts the
 *    post (a `schedule` in the past, an empty queue).
 */
import type { Tx } from '../../db/types'
import type { Deps } from '../../deps'
import { EMPTY_CONTENT_FIELDS, mergeContent, type PostContent } from '../../domain/post-content'
import type { ValidationIntent, ValidationMedia } from '../../domain/post-validation'
import { assertBoardsOfAccounts } from '../accounts/boards'
import { assertDestinationsOfAccounts } from '../accounts/destinations'
import { assertMonthlyPostQuota, lockWorkspace } from '../workspace/lock'
import { assertCreateGate } from './approval-gate'
import { assertValidContent } from './content'
import { loadPostAccounts, loadPostMedia, type PostAccount } from './load'
import { type PostTiming, timingFor } from './timing'
import type { CreatePostInput, PostAction } from './types'

/** A create body resolved against its workspace: what the post would store and where it would go. */
export interface CreateDraft {
  content: PostContent
  accounts: PostAccount[]
  media: ValidationMedia[]
  scheduledAt: Date | null
  intent: ValidationIntent
  action: PostAction
}

export async function resolveCreate(db: Deps['db'], workspaceId: string, input: CreatePostInput): Promise<CreateDraft> {
  // A draft publishes nothing: it may name an account that is to be reconnected before it goes out.
  const requireConnected = input.action !== 'draft'
  const accounts = await loadPostAccounts(db, workspaceId, input.accountIds, { requireConnected })
  const media = await loadPostMedia(db, workspaceId, input.mediaIds)
  const content = mergeContent({ ...EMPTY_CONTENT_FIELDS, type: input.type, mediaIds: input.mediaIds }, input)
  return {
    content,
    accounts,
    media,
    scheduledAt: input.scheduledAt ? new Date(input.scheduledAt) : null,
    intent: input.action === 'draft' ? 'draft' : 'publish',
    action: input.action,
  }
}

/** The rules (422, one detail per violation), then the boards: for a real account that may be a network call. */
export async function assertCreatable(
  deps: Pick<Deps, 'db' | 'cipher' | 'networks' | 'clock'>,
  workspaceId: string,
  draft: CreateDraft,
): Promise<void> {
  assertValidContent(draft.content, draft.accounts, draft.media, draft.intent, draft.scheduledAt)
  await assertBoardsOfAccounts(deps, workspaceId, draft.accounts, draft.content.pinboardNetBoards, draft.intent)
  await assertDestinationsOfAccounts(deps, workspaceId, draft.accounts, draft.content.destinations, draft.intent)
}

/** Locks the workspace for the rest of `tx`, checks the plan's monthly cap, and times the post. */
export async function admitCreate(tx: Tx, workspaceId: string, draft: CreateDraft, now: Date): Promise<PostTiming> {
  const ws = await lockWorkspace(tx, workspaceId)
  await assertCreateGate(
    tx,
    workspaceId,
    draft.accounts.map((a) => a.id),
    draft.action,
  )
  await assertMonthlyPostQuota(tx, ws, now)
  return timingFor(tx, {
    action: draft.action,
    scheduledAt: draft.scheduledAt,
    workspaceId,
    timezone: ws.timezone,
    now,
  })
}
