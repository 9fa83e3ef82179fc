import { insertAsset, insertVariantsIfNew, isDeliberateRollback, selectVariants } from '../../db/queries/media'
import type { Deps } from '../../deps'
import { AppError } from '../../domain/errors'
import { newId } from '../../lib/ids'
import type { CropMode, Fit } from '../../media/geometry'
import { renderVariants, VARIANT_LIMITS, VariantSourceError } from '../../media/variants'
import { CANVASES } from '../../domain/rules/index'
import type { CanvasName } from '../../domain/rules/schema'
import { getAsset, type MediaAsset } from './assets'
import { newStorageKey } from './uploads'

export interface VariantView {
  id: string
  url: string
  format: CanvasName
  width: number
  height: number
}

export interface VariantsResult {
  sourceId: string
  variants: VariantView[]
}

/** The readable part of the source's key (`Xb7pQ2mT9wLz-summer-launch.jpg` gives `summer-launch`). */
function sourceStem(storageKey: string): string {
  const name = storageKey.slice(storageKey.lastIndexOf('/') + 1).replace(/\.[a-z0-9]+$/i, '')
  return name.replace(/^[0-9A-Za-z]{12}-/, '').slice(0, 40) || 'image'
}

/**
 * Cuts a source image into platform canvases (`CANVASES`; docs/decisions.md, "Media variants"). Each
 * variant is a new image asset with the source's alt text and folder. Formats with the same
 * dimensions share one file, and a repeated request for the same (source, format, fit, crop)
 * returns the variant made before instead of a new file.
 */
export async function createVariants(
  deps: Pick<Deps, 'db' | 'storage' | 'clock' | 'imageCodecs' | 'logger'>,
  workspaceId: string,
  sourceId: string,
  input: { formats: CanvasName[]; fit: Fit; crop: CropMode },
): Promise<VariantsResult> {
  const source = await getAsset(deps.db, workspaceId, sourceId)
  if (source.type !== 'IMAGE') {
    throw new AppError(
      'media_not_supported',
      `Variants apply to images only; ${source.id} is a ${source.type.toLowerCase()}.`,
      { details: [{ path: 'id', message: 'not an image' }] },
    )
  }
  const fit = input.fit
  // Crop mode means nothing to `contain`: one file serves both spellings.
  const crop: CropMode = fit === 'contain' ? 'centre' : input.crop
  const formats = [...new Set(input.formats)]
  const existing = await selectVariants(deps.db, { sourceId: source.id, fit, crop, formats })
  const made = new Map(existing.map((e) => [e.format as CanvasName, { id: e.id, url: e.url }]))
  const missing = formats.filter((f) => !made.has(f))
  if (missing.length > 0) {
    for (const [format, asset] of await renderMissing(deps, workspaceId, source, missing, fit, crop))
      made.set(format, asset)
  }
  return {
    sourceId: source.id,
    variants: formats.map((format) => ({ ...made.get(format)!, format, ...CANVASES[format] })),
  }
}

async function renderMissing(
  deps: Pick<Deps, 'db' | 'storage' | 'clock' | 'imageCodecs' | 'logger'>,
  workspaceId: string,
  source: MediaAsset,
  formats: CanvasName[],
  fit: Fit,
  crop: CropMode,
): Promise<Map<CanvasName, { id: string; url: string }>> {
  // One file per distinct size.
  const bySize = new Map<string, CanvasName[]>()
  for (const f of formats) {
    const size = `${CANVASES[f].width}x${CANVASES[f].height}`
    bySize.set(size, [...(bySize.get(size) ?? []), f])
  }
  const groups = [...bySize.values()]
  if (source.sizeBytes > VARIANT_LIMITS.maxSourceBytes) {
    const message = `The source is ${source.sizeBytes} bytes; variants are cut from images of at most ${VARIANT_LIMITS.maxSourceBytes} bytes.`
    throw new AppError('media_not_supported', message, {
      details: [{ path: 'id', message, limit: VARIANT_LIMITS.maxSourceBytes, actual: source.sizeBytes }],
    })
  }
  const bytes = await deps.storage.get(source.storageKey)
  if (!bytes)
    throw new AppError('media_not_found', `The file of ${source.id} is no longer in storage.`, {
      details: [{ path: 'id', message: 'source file missing' }],
    })
  let rendered
  try {
    rendered = await renderVariants(
      await deps.imageCodecs.load(),
      { bytes, mimeType: source.mimeType },
      groups.map((g) => CANVASES[g[0]!]),
      fit,
      crop,
    )
  } catch (err) {
    if (err instanceof VariantSourceError)
      throw new AppError('media_not_supported', err.message, { details: [{ path: 'id', message: err.message }] })
    throw err
  }
  deps.logger.debug('variants_rendered', {
    sourceId: source.id,
    canvases: groups.length,
    decodeEighths: rendered.stats.decodeEighths,
  })
  const out = new Map<CanvasName, { id: string; url: string }>()
  const now = deps.clock.now()
  for (const [i, output] of rendered.outputs.entries()) {
    const group = groups[i]!
    const key = newStorageKey(
      workspaceId,
      now,
      `${sourceStem(source.storageKey)}-${output.width}x${output.height}-${fit}${fit === 'cover' ? `-${crop}` : ''}.jpg`,
    )
    await deps.storage.put(key, output.bytes, 'image/jpeg')
    const asset = { id: newId('media'), url: deps.storage.publicUrl(key) }
    const claimed = await deps.db
      .transaction(async (tx) => {
        await insertAsset(tx, {
          id: asset.id,
          workspaceId,
          folderId: source.folderId,
          type: 'IMAGE',
          storageKey: key,
          url: asset.url,
          mimeType: 'image/jpeg',
          width: output.width,
          height: output.height,
          sizeBytes: output.bytes.length,
          altText: source.altText,
          createdAt: now,
        })
        const rows = await insertVariantsIfNew(
          tx,
          group.map((format) => ({ sourceId: source.id, format, fit, crop, assetId: asset.id, createdAt: now })),
        )
        // A concurrent request made the same variant first: keep theirs, drop ours.
        if (rows.length === 0) tx.rollback()
        return rows.map((r) => r.format as CanvasName)
      })
      .catch(async (err: unknown) => {
        if (!isDeliberateRollback(err)) throw err
        await deps.storage.delete(key)
        return [] as CanvasName[]
      })
    for (const format of claimed) out.set(format, asset)
  }
  // Whatever a concurrent request made instead.
  const lost = formats.filter((f) => !out.has(f))
  if (lost.length > 0) {
    const rows = await selectVariants(deps.db, { sourceId: source.id, fit, crop, formats: lost })
    for (const r of rows) out.set(r.format as CanvasName, { id: r.id, url: r.url })
  }
  return out
}
