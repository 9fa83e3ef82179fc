import {
  selectWorkspaceFolders,
  type AssetViewRow,
  findFolderId,
  findFolderIdByName,
  insertAssetIfNewKey,
  insertFolderIfNewName,
  selectAssetByStorageKey,
  selectWorkspaceAsset,
  selectWorkspaceAssetPage,
  selectWorkspaceAssets,
} from '../../db/queries/media'
import type { DbOrTx } from '../../db/types'
import type { Deps } from '../../deps'
import { AppError, type ErrorDetail } from '../../domain/errors'
import { newId } from '../../lib/ids'
import { probeObject, type MediaFacts } from '../../media/probe'
import { normalizeMimeType, type MediaType } from '../../media/sniff'
import { UPLOAD_LIMITS } from './uploads'

export interface MediaAsset {
  id: string
  type: MediaType
  storageKey: string
  url: string
  mimeType: string
  width: number | null
  height: number | null
  durationSec: number | null
  sizeBytes: number
  altText: string | null
  folderId: string | null
  /** The image this asset was cut from (a variant), else null. */
  sourceId: string | null
  createdAt: string
}

export interface RegisterAssetInput {
  type: MediaType
  storageKey: string
  url: string
  mimeType?: string | undefined
  width?: number | undefined
  height?: number | undefined
  durationSec?: number | undefined
  sizeBytes?: number | undefined
  altText?: string | null | undefined
  folderId?: string | null | undefined
  /** A folder by name, created when the workspace has none of that name. */
  folder?: string | undefined
}

/** Seconds a claimed duration may differ from the one read from the file (container rounding). */
const DURATION_TOLERANCE_SEC = 0.5

const toAsset = (row: AssetViewRow): MediaAsset => ({ ...row, createdAt: row.createdAt.toISOString() })

/** The asset, if it is in the workspace; 404 otherwise (another workspace's ids do not exist for the caller). */
export async function getAsset(db: DbOrTx, workspaceId: string, id: string): Promise<MediaAsset> {
  const [row] = await selectWorkspaceAsset(db, workspaceId, id)
  if (!row) throw new AppError('not_found', `No media asset ${id} in this workspace.`)
  return toAsset(row)
}

/** The library, newest first; with `folderId`, only that folder. */
export async function listAssets(
  db: DbOrTx,
  workspaceId: string,
  filter: { folderId?: string | undefined } = {},
): Promise<MediaAsset[]> {
  const rows = await selectWorkspaceAssets(db, workspaceId, filter.folderId)
  return rows.map(toAsset)
}

/** The workspace's media folders (created by name when media is registered), by name. */
export function listFolders(db: DbOrTx, workspaceId: string): Promise<{ id: string; name: string }[]> {
  return selectWorkspaceFolders(db, workspaceId)
}

/** One page of the library and the cursor of the next (null on the last page). */
export interface MediaPage {
  data: MediaAsset[]
  nextCursor: string | null
}

/**
 * A page of the library in the same order as `listAssets`. The cursor is the last asset of the
 * previous page, so assets added meanwhile (newer) never shift the pages a client walks. A cursor
 * that names no asset of the workspace is 400.
 */
export async function listAssetPage(
  db: DbOrTx,
  workspaceId: string,
  query: { folderId?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<MediaPage> {
  if (query.cursor !== undefined && (await selectWorkspaceAsset(db, workspaceId, query.cursor)).length === 0) {
    throw new AppError('invalid_request', 'The cursor is not one this list gave; start again without it.', {
      details: [{ path: 'query.cursor', message: 'unknown cursor' }],
    })
  }
  const rows = await selectWorkspaceAssetPage(db, workspaceId, {
    folderId: query.folderId,
    afterId: query.cursor,
    limit: query.limit + 1,
  })
  const data = rows.slice(0, query.limit).map(toAsset)
  return { data, nextCursor: rows.length > query.limit ? data[data.length - 1]!.id : null }
}

/** The folder's id when it is one of the workspace's; 422 `invalid_option` naming `folderId` otherwise. */
export async function existingFolder(db: DbOrTx, workspaceId: string, folderId: string): Promise<string> {
  const found = await findFolderId(db, workspaceId, folderId)
  if (!found)
    throw new AppError('invalid_option', `No folder ${folderId} in this workspace.`, {
      details: [{ path: 'folderId', message: 'unknown folder' }],
    })
  return found
}

async function resolveFolder(
  db: DbOrTx,
  workspaceId: string,
  input: RegisterAssetInput,
  now: Date,
): Promise<string | null> {
  if (input.folderId) return existingFolder(db, workspaceId, input.folderId)
  const name = input.folder?.trim()
  if (!name) return null
  await insertFolderIfNewName(db, { id: newId('folder'), workspaceId, name, createdAt: now })
  return (await findFolderIdByName(db, workspaceId, name))!
}

/** Every claim of the caller that the file itself contradicts, one detail each. */
function contradictedClaims(input: RegisterAssetInput, facts: MediaFacts): ErrorDetail[] {
  const out: ErrorDetail[] = []
  const said = (path: string, claimed: unknown, actual: unknown) =>
    out.push({
      path,
      message: `the file has ${path} ${String(actual)}, not ${String(claimed)}`,
      claimed,
      found: actual,
    })
  if (input.type !== facts.type) said('type', input.type, facts.type)
  if (input.mimeType !== undefined && normalizeMimeType(input.mimeType) !== facts.mimeType)
    said('mimeType', input.mimeType, facts.mimeType)
  if (input.sizeBytes !== undefined && input.sizeBytes !== facts.sizeBytes)
    said('sizeBytes', input.sizeBytes, facts.sizeBytes)
  if (input.width !== undefined && facts.width !== null && input.width !== facts.width)
    said('width', input.width, facts.width)
  if (input.height !== undefined && facts.height !== null && input.height !== facts.height)
    said('height', input.height, facts.height)
  if (
    input.durationSec !== undefined &&
    facts.durationSec !== null &&
    Math.abs(input.durationSec - facts.durationSec) > DURATION_TOLERANCE_SEC
  ) {
    said('durationSec', input.durationSec, facts.durationSec)
  }
  return out
}

/**
 * Step 3 of an upload: makes a stored object an asset. The key must be under the caller's
 * workspace and `url` must be the object's own public URL (the service never fetches a URL a caller
 * chose). Type, size, dimensions and duration are read from the object; a claim that disagrees is
 * refused. Registering the same key again returns the asset it already is.
 */
export async function registerAsset(
  deps: Pick<Deps, 'db' | 'storage' | 'clock'>,
  workspaceId: string,
  input: RegisterAssetInput,
): Promise<MediaAsset> {
  const notFound = () =>
    new AppError(
      'media_not_found',
      'Nothing was uploaded under this storageKey in your workspace. PUT the bytes to the uploadUrl of POST /v1/media/uploads first.',
      {
        details: [{ path: 'storageKey', message: 'no such object in this workspace' }],
      },
    )
  // Another workspace's keys look exactly like missing ones, and the store is not even asked.
  if (!input.storageKey.startsWith(`${workspaceId}/`) || input.storageKey.includes('..')) throw notFound()
  if (input.url !== deps.storage.publicUrl(input.storageKey)) {
    throw new AppError(
      'invalid_option',
      'url must be the url that POST /v1/media/uploads returned for this storageKey.',
      {
        details: [{ path: 'url', message: 'not the public URL of storageKey' }],
      },
    )
  }
  const probe = await probeObject(deps.storage, input.storageKey)
  if (!probe.ok && probe.reason === 'missing') throw notFound()
  if (!probe.ok)
    throw new AppError('media_not_supported', probe.message, {
      details: [{ path: 'storageKey', message: probe.message }],
    })
  const facts = probe.facts
  if (facts.sizeBytes > UPLOAD_LIMITS.maxSizeBytes) {
    throw new AppError(
      'media_not_supported',
      `The file is ${facts.sizeBytes} bytes; the service accepts files up to ${UPLOAD_LIMITS.maxSizeBytes} bytes (2 GB).`,
      {
        details: [{ path: 'sizeBytes', limit: UPLOAD_LIMITS.maxSizeBytes, actual: facts.sizeBytes }],
      },
    )
  }
  if (facts.storedContentType && normalizeMimeType(facts.storedContentType) !== facts.mimeType) {
    throw new AppError(
      'invalid_option',
      `The uploaded bytes are ${facts.mimeType} but were uploaded as ${facts.storedContentType}; request an upload URL with contentType ${facts.mimeType} and upload again.`,
      {
        details: [
          { path: 'storageKey', message: `stored as ${facts.storedContentType}, content is ${facts.mimeType}` },
        ],
      },
    )
  }
  const contradicted = contradictedClaims(input, facts)
  if (contradicted.length > 0) {
    const first = contradicted[0]!
    throw new AppError(
      'invalid_option',
      contradicted.length === 1
        ? `The uploaded file contradicts the request: ${first.path}: ${first.message}.`
        : `The uploaded file contradicts ${contradicted.length} claims of the request; see details.`,
      {
        details: contradicted,
      },
    )
  }
  const now = deps.clock.now()
  const folderId = await resolveFolder(deps.db, workspaceId, input, now)
  const id = newId('media')
  await insertAssetIfNewKey(deps.db, {
    id,
    workspaceId,
    folderId,
    type: facts.type,
    storageKey: input.storageKey,
    url: input.url,
    mimeType: facts.mimeType,
    width: facts.width,
    height: facts.height,
    durationSec: facts.durationSec,
    sizeBytes: facts.sizeBytes,
    altText: input.altText ?? null,
    createdAt: now,
  })
  const [row] = await selectAssetByStorageKey(deps.db, workspaceId, input.storageKey)
  if (!row) throw notFound()
  return toAsset(row)
}
