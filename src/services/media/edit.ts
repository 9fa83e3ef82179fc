/**
 * Editing a library file's description (`PATCH /v1/media/{id}`): its alt text and its folder. The file
 * itself never changes. Variants show the same picture, so a new alt text is theirs too; a folder move
 * concerns the asset asked for only. One transaction: the asset and its variants change together.
 */
import {
  findFolderIdByName,
  insertFolderIfNewName,
  setVariantsAltText,
  updateWorkspaceAsset,
} from '../../db/queries/media'
import type { Deps } from '../../deps'
import { AppError } from '../../domain/errors'
import { newId } from '../../lib/ids'
import { existingFolder, getAsset, type MediaAsset } from './assets'

export interface EditAssetInput {
  altText?: string | null | undefined
  /** An existing folder of the workspace; null takes the file out of its folder. */
  folderId?: string | null | undefined
  /** A folder by name, created if the workspace has none (ignored when `folderId` is given). */
  folder?: string | undefined
}

export async function editAsset(
  deps: Pick<Deps, 'db' | 'clock'>,
  workspaceId: string,
  id: string,
  input: EditAssetInput,
): Promise<MediaAsset> {
  const now = deps.clock.now()
  await deps.db.transaction(async (tx) => {
    const set: { altText?: string | null; folderId?: string | null } = {}
    if (input.altText !== undefined) set.altText = input.altText === null ? null : input.altText.trim() || null
    if (input.folderId !== undefined) {
      set.folderId = input.folderId === null ? null : await existingFolder(tx, workspaceId, input.folderId)
    } else if (input.folder !== undefined) {
      const name = input.folder.trim()
      await insertFolderIfNewName(tx, { id: newId('folder'), workspaceId, name, createdAt: now })
      set.folderId = await findFolderIdByName(tx, workspaceId, name)
    }
    // An empty body changes nothing; the answer is still the asset (or 404), as for an empty edit of a post.
    if (Object.keys(set).length === 0) return
    const changed = await updateWorkspaceAsset(tx, workspaceId, id, set)
    if (changed === 0) throw new AppError('not_found', `No media asset ${id} in this workspace.`)
    if (set.altText !== undefined) await setVariantsAltText(tx, workspaceId, id, set.altText)
  })
  return getAsset(deps.db, workspaceId, id)
}
