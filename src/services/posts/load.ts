import { selectWorkspaceAssetsByIds } from '../../db/queries/media'
import { selectWorkspaceAccountsByIds } from '../../db/queries/posts'
import type { DbOrTx } from '../../db/types'
import { AppError, type ErrorDetail } from '../../domain/errors'
import type { ValidationAccount, ValidationMedia } from '../../domain/post-validation'

/** The post's accounts, in the caller's order without repeats; 422 naming each id not in the workspace. */
export async function loadPostAccounts(
  db: DbOrTx,
  workspaceId: string,
  accountIds: string[],
): Promise<ValidationAccount[]> {
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
  return distinct.map((id) => {
    const r = byId.get(id)!
    return { id: r.id, platform: r.platform, connection: r.connection }
  })
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
