/**
 * Managing client review links (owners and admins): create one for an account group (its address
 * shown once), list them with their state, revoke one. Each change is in the activity log.
 */
import {
  findWorkspaceGroup,
  findWorkspaceReviewLink,
  insertReviewLink,
  type ReviewLinkView,
  revokeWorkspaceReviewLink,
  selectWorkspaceGroups,
  selectWorkspaceReviewLinks,
} from '../../db/queries/review-links'
import type { Deps } from '../../deps'
import type { ActorRef } from '../../domain/access'
import { AppError, notFound } from '../../domain/errors'
import { REVIEW_LINK_DAYS, type ReviewLinkState, reviewLinkExpiry, reviewLinkState } from '../../domain/review-links'
import { newId } from '../../lib/ids'
import { recordActivity } from '../activity/record'
import type { Caller } from '../caller'
import { issueReviewToken } from './token'

export interface ReviewLinkRecord {
  id: string
  groupId: string
  groupName: string
  name: string
  state: ReviewLinkState
  createdBy: ActorRef
  expiresAt: string
  revokedAt: string | null
  lastUsedAt: string | null
  createdAt: string
}

export interface CreatedReviewLink extends ReviewLinkRecord {
  /** The page's address with its token: shown this once, never stored. */
  url: string
}

export interface CreateReviewLinkInput {
  groupId: string
  name: string
  expiresInDays?: number | undefined
}

const iso = (d: Date | null) => d?.toISOString() ?? null

const toRecord = (link: ReviewLinkView, now: Date): ReviewLinkRecord => ({
  id: link.id,
  groupId: link.groupId,
  groupName: link.groupName,
  name: link.name,
  state: reviewLinkState(link, now),
  createdBy: link.createdBy,
  expiresAt: link.expiresAt.toISOString(),
  revokedAt: iso(link.revokedAt),
  lastUsedAt: iso(link.lastUsedAt),
  createdAt: link.createdAt.toISOString(),
})

/** The address of a review page: `<base URL>/review/<token>`. */
export const reviewPageUrl = (baseUrl: string, token: string): string =>
  `${baseUrl.replace(/\/+$/, '')}/review/${token}`

/** Creates a link for one of the workspace's groups; its token is in `url` only in this answer. */
export async function createReviewLink(
  deps: Deps,
  caller: Caller,
  input: CreateReviewLinkInput & { baseUrl: string },
): Promise<CreatedReviewLink> {
  const days = input.expiresInDays ?? REVIEW_LINK_DAYS.default
  if (!Number.isInteger(days) || days < REVIEW_LINK_DAYS.min || days > REVIEW_LINK_DAYS.max)
    throw new AppError(
      'invalid_request',
      `A review link lasts ${REVIEW_LINK_DAYS.min} to ${REVIEW_LINK_DAYS.max} days.`,
      {
        details: [{ path: 'expiresInDays', message: `Between ${REVIEW_LINK_DAYS.min} and ${REVIEW_LINK_DAYS.max}.` }],
      },
    )
  const name = input.name.trim()
  if (name === '' || name.length > 100)
    throw new AppError('invalid_request', 'Give the link a name of 1 to 100 characters.', {
      details: [{ path: 'name', message: 'Between 1 and 100 characters.' }],
    })
  const now = deps.clock.now()
  const id = newId('reviewLink')
  const expiresAt = reviewLinkExpiry(now, days)
  const { token, tokenHash } = await issueReviewToken(deps.cipher, id, expiresAt)
  const link = await deps.db.transaction(async (tx) => {
    const group = await findWorkspaceGroup(tx, caller.workspaceId, input.groupId)
    if (!group)
      throw new AppError('not_found', 'There is no account group with this id in the workspace.', {
        details: [{ path: 'groupId', message: `No group ${input.groupId}.` }],
      })
    const row = await insertReviewLink(tx, {
      id,
      workspaceId: caller.workspaceId,
      groupId: group.id,
      name,
      tokenHash,
      createdBy: caller.actor,
      expiresAt,
      createdAt: now,
    })
    await recordActivity(tx, {
      workspaceId: caller.workspaceId,
      actor: caller.actor,
      ip: caller.ip,
      action: 'review_link.created',
      subject: { type: 'review_link', id },
      summary: `Created the review link "${name}" for the group ${group.name}, valid ${days} day${days === 1 ? '' : 's'}.`,
      details: { groupId: group.id, expiresAt: expiresAt.toISOString() },
      now,
    })
    return { ...row, groupName: group.name }
  })
  return { ...toRecord(link, now), url: reviewPageUrl(input.baseUrl, token) }
}

/** The workspace's review links, newest first (never their tokens). */
export async function listReviewLinks(deps: Deps, caller: Caller): Promise<ReviewLinkRecord[]> {
  const now = deps.clock.now()
  return (await selectWorkspaceReviewLinks(deps.db, caller.workspaceId)).map((l) => toRecord(l, now))
}

/** Revokes a link: its page says so from now on. Revoking a revoked link answers it as it is. */
export async function revokeReviewLink(deps: Deps, caller: Caller, id: string): Promise<ReviewLinkRecord> {
  const now = deps.clock.now()
  const link = await deps.db.transaction(async (tx) => {
    const found = await findWorkspaceReviewLink(tx, caller.workspaceId, id)
    if (!found) throw notFound('Review link')
    const revoked = await revokeWorkspaceReviewLink(tx, caller.workspaceId, id, now)
    if (!revoked) return found
    await recordActivity(tx, {
      workspaceId: caller.workspaceId,
      actor: caller.actor,
      ip: caller.ip,
      action: 'review_link.revoked',
      subject: { type: 'review_link', id },
      summary: `Revoked the review link "${found.name}" for the group ${found.groupName}.`,
      now,
    })
    return { ...revoked, groupName: found.groupName }
  })
  return toRecord(link, now)
}

/** The groups a link may be made for (the settings page's choice). */
export function reviewLinkGroups(deps: Deps, caller: Caller): Promise<Array<{ id: string; name: string }>> {
  return selectWorkspaceGroups(deps.db, caller.workspaceId)
}
