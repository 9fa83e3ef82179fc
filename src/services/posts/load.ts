import { selectWorkspaceAssetsByIds } from '../../db/queries/media'
import { selectWorkspaceAccountsByIds } from '../../db/queries/posts'
import type { DbOrTx } from '../../db/types'
import { AppError, type ErrorDetail } from '../../domain/errors'
import type { ValidationAccount, ValidationMedia } from '../../domain/post-validation'

/** An account a post targets, with when its token expires (null: not known to expire). */
export interface PostAccount extends ValidationAccount {
  tokenExpiresAt: Date | null
}

/**
 * The post's accounts, in the caller's order without repeats; 422 naming each id not in the workspace,
 * and with `requireConnected` (a new post) 422 naming each account that is EXPIRED or DISCONNECTED.
 */
export async function loadPostAccounts(
  db: DbOrTx,
  workspaceId: string,
  accountIds: string[],
  options: { requireConnected?: boolean } = {},
): Promise<PostAccount[]> {
  const distinct = [...new Set(accountIds)]
  const rows = await selectWorkspaceAccountsByIds(db, workspaceId, distinct)
  const byId = new Map(rows.map((r) => [r.id, r]))
  const missing: ErrorDetail[] = []
  accountIds.forEach((id, i) => {
    if (!byId.has(id)) missing.push({ path: `accountIds.${i}`, message: `no account ${id} in this workspace` })
  })
  if (missing.length > 0) {
    throw new AppError(
      'account_not_found',
      missing.length === 1
        ? `Account ${accountIds[Number(missing[0]!.path.split('.')[1])]} is not in this workspace.`
        : `${missing.length} accounts are not in this workspace; see details.`,
      { details: missing },
    )
  }
  if (options.requireConnected) assertConnected(accountIds, byId)
  return distinct.map((id) => {
    const r = byId.get(id)!
    return {
      id: r.id,
      platform: r.platform,
      connection: r.connection,
      tokenExpiresAt: r.tokenExpiresAt,
      captionMaxLength: r.captionMaxLength,
    }
  })
}

/**
 * A new post cannot go to an account that cannot publish: 422 `account_not_connected` naming each
 * EXPIRED or DISCONNECTED account, with its reason and what to do (reconnect, or leave it out).
 */
function assertConnected(
  accountIds: string[],
  byId: Map<string, { platform: string; status: string; statusMessage: string | null }>,
): void {
  const seen = new Set<string>()
  const refused: ErrorDetail[] = []
  accountIds.forEach((id, i) => {
    const r = byId.get(id)
    if (!r || r.status === 'ACTIVE' || seen.has(id)) return
    seen.add(id)
    const why = r.statusMessage ? ` (${r.statusMessage})` : ''
    refused.push({
      path: `accountIds.${i}`,
      platform: r.platform,
      message: `account ${id} is ${r.status}${why}: reconnect it (POST /v1/accounts/${id}/reconnect) or leave it out`,
    })
  })
  if (refused.length === 0) return
  throw new AppError(
    'account_not_connected',
    refused.length === 1
      ? `This post cannot go out: ${refused[0]!.message}.`
      : `${refused.length} accounts cannot publish until they are reconnected; see details.`,
    { details: refused },
  )
}

/** The post's media in `mediaIds` order; 422 naming each id not in the workspace. */
export async function loadPostMedia(db: DbOrTx, workspaceId: string, mediaIds: string[]): Promise<ValidationMedia[]> {
  if (mediaIds.length === 0) return []
  const rows = await selectWorkspaceAssetsByIds(db, workspaceId, [...new Set(mediaIds)])
  const byId = new Map(rows.map((r) => [r.id, r]))
  const missing: ErrorDetail[] = []
  mediaIds.forEach((id, i) => {
    if (!byId.has(id)) missing.push({ path: `mediaIds.${i}`, message: `no media asset ${id} in this workspace` })
  })
  if (missing.length > 0) {
    throw new AppError(
      'media_not_found',
      missing.length === 1
        ? `Media asset ${mediaIds[Number(missing[0]!.path.split('.')[1])]} is not in this workspace.`
        : `${missing.length} media assets are not in this workspace; see details.`,
      { details: missing },
    )
  }
  return mediaIds.map((id) => {
    const r = byId.get(id)!
    return {
      id: r.id,
      type: r.type,
      mimeType: r.mimeType,
      sizeBytes: r.sizeBytes,
      width: r.width,
      height: r.height,
      durationSec: r.durationSec,
    }
  })
}
