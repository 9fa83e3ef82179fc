/**
 * What a review link's holder reaches: the link itself (checked token, then the stored hash), its
 * group's upcoming posts with what their previews need, and the two decisions on a post in review,
 * taken through the approvals service as the visitor (actor kind `review_link`). Nothing else.
 */
import { selectWorkspaceAssetsByIds } from '../../db/queries/media'
import {
  findReviewLinkByHash,
  selectGroupAccounts,
  selectPostsWithTargets,
  selectUpcomingPostIds,
  touchReviewLink,
} from '../../db/queries/review-links'
import type { Deps } from '../../deps'
import { notFound } from '../../domain/errors'
import {
  REVIEWABLE_STATUSES,
  reviewLinkState,
  reviewVisitorActorName,
  type ReviewLinkState,
} from '../../domain/review-links'
import type { PlatformId } from '../../domain/vocabulary'
import { recordActivity } from '../activity/record'
import type { Caller } from '../caller'
import { approvePost, requestPostChanges } from '../posts/approval'
import { type PostRecord, toPostRecord } from '../posts/record'
import { checkReviewToken } from './token'

/** At most this many posts on a page (the soonest). */
export const REVIEW_PAGE_MAX_POSTS = 100
/** last_used_at is written at most this often per link. */
const LAST_USED_RESOLUTION_MS = 60_000

/** A link that opens, as its pages need it. */
export interface OpenReviewLink {
  id: string
  workspaceId: string
  groupId: string
  groupName: string
  name: string
  workspaceName: string
  timezone: string
  expiresAt: Date
}

export type ReviewLinkVisit =
  | { state: 'not_found' }
  | { state: Exclude<ReviewLinkState, 'active'> }
  | { state: 'active'; link: OpenReviewLink }

/** Opens a link by its token: unknown, expired, revoked, or the link (and its use noted). */
export async function openReviewLink(deps: Deps, token: string): Promise<ReviewLinkVisit> {
  const now = deps.clock.now()
  const checked = await checkReviewToken(deps.cipher, token, now)
  if (checked.state === 'invalid') return { state: 'not_found' }
  if (checked.state === 'expired') return { state: 'expired' }
  const found = await findReviewLinkByHash(deps.db, checked.linkId, checked.tokenHash)
  if (!found) return { state: 'not_found' }
  const state = reviewLinkState(found.link, now)
  if (state !== 'active') return { state }
  await touchReviewLink(deps.db, found.link.id, now, LAST_USED_RESOLUTION_MS)
  const { link } = found
  return {
    state: 'active',
    link: {
      id: link.id,
      workspaceId: link.workspaceId,
      groupId: link.groupId,
      groupName: found.groupName,
      name: link.name,
      workspaceName: found.workspaceName,
      timezone: found.timezone,
      expiresAt: link.expiresAt,
    },
  }
}

/** An account of the link's group, as a preview names it. */
export interface ReviewAccount {
  id: string
  platform: PlatformId
  username: string
}

export interface ReviewMedia {
  id: string
  type: 'IMAGE' | 'VIDEO'
  url: string
  altText: string | null
}

/** One post on a review page: the post, the group's accounts it goes to, its media. */
export interface ReviewPost {
  post: PostRecord
  accounts: ReviewAccount[]
  media: ReviewMedia[]
}

/** The group's upcoming posts, soonest first: only the group's accounts are named, only the posts' media given. */
export async function listReviewPosts(deps: Deps, link: OpenReviewLink): Promise<ReviewPost[]> {
  const { db } = deps
  const groupAccounts = await selectGroupAccounts(db, link.workspaceId, link.groupId)
  const ids = await selectUpcomingPostIds(db, link.workspaceId, {
    accountIds: groupAccounts.map((a) => a.id),
    statuses: REVIEWABLE_STATUSES,
    now: deps.clock.now(),
    limit: REVIEW_PAGE_MAX_POSTS,
  })
  const { rows, postTargets } = await selectPostsWithTargets(db, link.workspaceId, ids)
  const mediaIds = [...new Set(rows.flatMap((r) => r.mediaIds))]
  const media = mediaIds.length === 0 ? [] : await selectWorkspaceAssetsByIds(db, link.workspaceId, mediaIds)
  const mediaById = new Map(media.map((m) => [m.id, m]))
  const accountById = new Map(groupAccounts.map((a) => [a.id, a]))
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.flatMap((id) => {
    const row = byId.get(id)
    if (!row) return []
    const post = toPostRecord(
      row,
      postTargets.filter((t) => t.postId === id),
    )
    return [
      {
        post,
        accounts: post.accountIds.flatMap((a) => {
          const account = accountById.get(a)
          return account ? [account] : []
        }),
        media: row.mediaIds.flatMap((m) => {
          const asset = mediaById.get(m)
          return asset
            ? [
                {
                  id: asset.id,
                  type: asset.type === 'VIDEO' ? 'VIDEO' : 'IMAGE',
                  url: asset.url,
                  altText: asset.altText,
                },
              ]
            : []
        }) as ReviewMedia[],
      },
    ]
  })
}

/** The caller a visitor acts as: a reviewer limited to the link's group, named after the name they gave. */
export function visitorCaller(link: OpenReviewLink, visitorName: string, ip: string | null): Caller {
  return {
    workspaceId: link.workspaceId,
    access: { role: 'reviewer', groupIds: [link.groupId] },
    actor: { kind: 'review_link', id: link.id, name: reviewVisitorActorName(visitorName) },
    userId: null,
    ip,
  }
}

/** Notes in the activity log that a visitor gave their name on the link's page. */
export async function recordVisitor(deps: Deps, link: OpenReviewLink, visitorName: string, ip: string | null) {
  const caller = visitorCaller(link, visitorName, ip)
  await deps.db.transaction((tx) =>
    recordActivity(tx, {
      workspaceId: link.workspaceId,
      actor: caller.actor,
      ip,
      action: 'review_link.visited',
      subject: { type: 'review_link', id: link.id },
      summary: `${visitorName} opened the review link "${link.name}" for the group ${link.groupName}.`,
      now: deps.clock.now(),
    }),
  )
}

export type ReviewDecision =
  | { kind: 'approve'; version: number; comment?: string | undefined }
  | { kind: 'request_changes'; version: number; comment: string }

/**
 * A visitor's decision on one of the page's posts, through the approvals service (which checks the
 * transition and the version, and records it with the visitor as actor). A post the page does not
 * show is 404, whatever its id.
 */
export async function decideReviewPost(
  deps: Deps,
  visit: { link: OpenReviewLink; visitorName: string; ip: string | null },
  postId: string,
  decision: ReviewDecision,
): Promise<PostRecord> {
  const shown = await listReviewPostIds(deps, visit.link)
  if (!shown.includes(postId)) throw notFound('Post')
  const caller = visitorCaller(visit.link, visit.visitorName, visit.ip)
  if (decision.kind === 'approve')
    return approvePost(deps, caller, postId, {
      version: decision.version,
      ...(decision.comment ? { comment: decision.comment } : {}),
    })
  return requestPostChanges(deps, caller, postId, { version: decision.version, comment: decision.comment })
}

async function listReviewPostIds(deps: Deps, link: OpenReviewLink): Promise<string[]> {
  const groupAccounts = await selectGroupAccounts(deps.db, link.workspaceId, link.groupId)
  return selectUpcomingPostIds(deps.db, link.workspaceId, {
    accountIds: groupAccounts.map((a) => a.id),
    statuses: REVIEWABLE_STATUSES,
    now: deps.clock.now(),
    limit: REVIEW_PAGE_MAX_POSTS,
  })
}
