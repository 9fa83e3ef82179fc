/**
 * Queries of the media library: assets (with the source a variant was cut from), folders, and the
 * variants that link a source image to the assets cut from it.
 */
import { and, desc, eq, inArray, sql, type SQL, TransactionRollbackError } from 'drizzle-orm'
import { folders, mediaAssets, mediaVariants } from '../schema'
import type { DbOrTx } from '../types'

export type MediaAssetRow = typeof mediaAssets.$inferSelect
export type NewMediaAssetRow = typeof mediaAssets.$inferInsert

const sourceIdSql = sql<
  string | null
>`(select mv.source_id from media_variants mv where mv.asset_id = ${mediaAssets.id} limit 1)`

const assetColumns = {
  id: mediaAssets.id,
  type: mediaAssets.type,
  storageKey: mediaAssets.storageKey,
  url: mediaAssets.url,
  mimeType: mediaAssets.mimeType,
  width: mediaAssets.width,
  height: mediaAssets.height,
  durationSec: mediaAssets.durationSec,
  sizeBytes: mediaAssets.sizeBytes,
  altText: mediaAssets.altText,
  folderId: mediaAssets.folderId,
  sourceId: sourceIdSql,
  createdAt: mediaAssets.createdAt,
}

/** An asset as the API shows it: its columns and, for a variant, the image it was cut from. */
export type AssetViewRow = Omit<MediaAssetRow, 'workspaceId'> & { sourceId: string | null }

function selectAssets(db: DbOrTx, where: SQL | undefined, limit?: number): Promise<AssetViewRow[]> {
  const query = db
    .select(assetColumns)
    .from(mediaAssets)
    .where(where)
    .orderBy(desc(mediaAssets.createdAt), desc(mediaAssets.id))
  return limit === undefined ? query : query.limit(limit)
}

/** The asset if it is in the workspace (a list of none or one). */
export function selectWorkspaceAsset(db: DbOrTx, workspaceId: string, id: string): Promise<AssetViewRow[]> {
  return selectAssets(db, and(eq(mediaAssets.workspaceId, workspaceId), eq(mediaAssets.id, id)))
}

/** The workspace's library, newest first; with `folderId`, only that folder. */
export function selectWorkspaceAssets(
  db: DbOrTx,
  workspaceId: string,
  folderId: string | undefined,
): Promise<AssetViewRow[]> {
  return selectAssets(
    db,
    and(
      eq(mediaAssets.workspaceId, workspaceId),
      folderId !== undefined ? eq(mediaAssets.folderId, folderId) : undefined,
    ),
  )
}

/**
 * At most `limit` assets of the library in its order (newest first, ties by id), after the asset
 * `afterId` when given: compared as (created_at, id) with that row's own values, so no precision is lost.
 */
export function selectWorkspaceAssetPage(
  db: DbOrTx,
  workspaceId: string,
  page: { folderId: string | undefined; afterId: string | undefined; limit: number },
): Promise<AssetViewRow[]> {
  const after =
    page.afterId === undefined
      ? undefined
      : sql`(${mediaAssets.createdAt}, ${mediaAssets.id}) < (select ma.created_at, ma.id from media_assets ma
          where ma.id = ${page.afterId} and ma.workspace_id = ${workspaceId})`
  return selectAssets(
    db,
    and(
      eq(mediaAssets.workspaceId, workspaceId),
      page.folderId !== undefined ? eq(mediaAssets.folderId, page.folderId) : undefined,
      after,
    ),
    page.limit,
  )
}

/** The asset stored under `storageKey` in the workspace (a list of none or one). */
export function selectAssetByStorageKey(db: DbOrTx, workspaceId: string, storageKey: string): Promise<AssetViewRow[]> {
  return selectAssets(db, and(eq(mediaAssets.workspaceId, workspaceId), eq(mediaAssets.storageKey, storageKey)))
}

/** Inserts the asset unless its storage key is registered already (then the first one stays). */
export async function insertAssetIfNewKey(db: DbOrTx, values: NewMediaAssetRow): Promise<void> {
  await db.insert(mediaAssets).values(values).onConflictDoNothing({ target: mediaAssets.storageKey })
}

export async function insertAsset(tx: DbOrTx, values: NewMediaAssetRow): Promise<void> {
  await tx.insert(mediaAssets).values(values)
}

/** The workspace's assets among `ids` (each once), in no particular order. */
export function selectWorkspaceAssetsByIds(db: DbOrTx, workspaceId: string, ids: string[]): Promise<MediaAssetRow[]> {
  return db
    .select()
    .from(mediaAssets)
    .where(and(eq(mediaAssets.workspaceId, workspaceId), inArray(mediaAssets.id, ids)))
}

/** The folder's id if the workspace has a folder with this id, else null. */
export async function findFolderId(db: DbOrTx, workspaceId: string, folderId: string): Promise<string | null> {
  const [found] = await db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.workspaceId, workspaceId), eq(folders.id, folderId)))
  return found?.id ?? null
}

/** Creates the folder unless the workspace has one of that name already. */
export async function insertFolderIfNewName(
  db: DbOrTx,
  values: { id: string; workspaceId: string; name: string; createdAt: Date },
): Promise<void> {
  await db.insert(folders).values(values).onConflictDoNothing()
}

export async function findFolderIdByName(db: DbOrTx, workspaceId: string, name: string): Promise<string | null> {
  const [found] = await db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.workspaceId, workspaceId), eq(folders.name, name)))
  return found?.id ?? null
}

/** The variants already cut from `sourceId` with this fit and crop, for these formats. */
export function selectVariants(
  db: DbOrTx,
  variant: { sourceId: string; fit: string; crop: string; formats: string[] },
): Promise<Array<{ format: string; id: string; url: string }>> {
  return db
    .select({ format: mediaVariants.format, id: mediaAssets.id, url: mediaAssets.url })
    .from(mediaVariants)
    .innerJoin(mediaAssets, eq(mediaAssets.id, mediaVariants.assetId))
    .where(
      and(
        eq(mediaVariants.sourceId, variant.sourceId),
        eq(mediaVariants.fit, variant.fit),
        eq(mediaVariants.crop, variant.crop),
        inArray(mediaVariants.format, variant.formats),
      ),
    )
}

/** Links the formats to their asset, skipping any another request linked first; the formats it linked. */
export function insertVariantsIfNew(
  tx: DbOrTx,
  rows: Array<{ sourceId: string; format: string; fit: string; crop: string; assetId: string; createdAt: Date }>,
): Promise<Array<{ format: string }>> {
  return tx.insert(mediaVariants).values(rows).onConflictDoNothing().returning({ format: mediaVariants.format })
}

/** True for the error `tx.rollback()` throws out of `db.transaction` (a deliberate rollback, not a failure). */
export const isDeliberateRollback = (err: unknown): boolean => err instanceof TransactionRollbackError

/** The workspace's media folders, by name. */
export function selectWorkspaceFolders(db: DbOrTx, workspaceId: string): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: folders.id, name: folders.name })
    .from(folders)
    .where(eq(folders.workspaceId, workspaceId))
    .orderBy(folders.name)
}

/** Sets the asset's alt text and/or folder (only the fields given); how many rows changed (0: not in the workspace). */
export async function updateWorkspaceAsset(
  tx: DbOrTx,
  workspaceId: string,
  id: string,
  set: { altText?: string | null; folderId?: string | null },
): Promise<number> {
  const rows = await tx
    .update(mediaAssets)
    .set(set)
    .where(and(eq(mediaAssets.workspaceId, workspaceId), eq(mediaAssets.id, id)))
    .returning({ id: mediaAssets.id })
  return rows.length
}

/** Gives the variants cut from an asset its alt text (they show the same picture). */
export async function setVariantsAltText(
  tx: DbOrTx,
  workspaceId: string,
  sourceId: string,
  altText: string | null,
): Promise<void> {
  await tx
    .update(mediaAssets)
    .set({ altText })
    .where(
      and(
        eq(mediaAssets.workspaceId, workspaceId),
        inArray(
          mediaAssets.id,
          tx.select({ id: mediaVariants.assetId }).from(mediaVariants).where(eq(mediaVariants.sourceId, sourceId)),
        ),
      ),
    )
}
