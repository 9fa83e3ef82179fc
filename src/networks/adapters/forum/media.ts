/**
 * Media for a submission: the network's media asset lease (`POST /api/media/asset.json` with the
 * file's name and type answers an upload form: `args.action`, a scheme-less URL of its media
 * store, and `args.fields`, the form fields to send with the file), then the file itself posted
 * to that store. The asset is then named in the submission by its URL (image, video, poster) or
 * its `asset_id` (a gallery item). Each uploaded asset is saved in the progress at once, so a
 * retry uploads only what is missing.
 */
import type { PublishInput, PublishMedia } from '../../adapter'
import { NetworkFailure, downloadMedia, MEDIA_TIMEOUT_MS, request } from '../../http'
import { NETWORK, type ForumCall } from './api'

export interface UploadedAsset {
  assetId: string
  url: string
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
}

/** `//host/path` as the network writes it, made an https URL; a full URL is kept. */
export const uploadUrl = (action: string): string => (action.startsWith('//') ? `https:${action}` : action)

/** Uploaded assets by media id, from the progress. */
export const assetsOf = (progress: PublishInput['progress']): Record<string, UploadedAsset> =>
  (progress.assets as Record<string, UploadedAsset> | undefined) ?? {}

/** Leases and uploads each media item not uploaded yet; saves each as it lands. */
export async function uploadAll(
  call: ForumCall,
  input: Pick<PublishInput, 'progress' | 'saveProgress' | 'fetch'>,
  media: PublishMedia[],
): Promise<Record<string, UploadedAsset>> {
  const assets = { ...assetsOf(input.progress) }
  for (const item of media) {
    if (assets[item.id]) continue
    assets[item.id] = await uploadOne(call, input.fetch, item)
    await input.saveProgress({ assets: { ...assets } })
  }
  return assets
}

async function uploadOne(call: ForumCall, fetchImpl: typeof fetch, item: PublishMedia): Promise<UploadedAsset> {
  const extension = EXTENSIONS[item.mimeType] ?? 'bin'
  const lease = await call('POST', '/api/media/asset.json', {
    form: { filepath: `${item.id}.${extension}`, mimetype: item.mimeType },
  })
  const action = typeof lease?.args?.action === 'string' ? uploadUrl(lease.args.action) : ''
  const fields: Array<{ name: string; value: string }> = Array.isArray(lease?.args?.fields) ? lease.args.fields : []
  const key = fields.find((f) => f.name === 'key')?.value
  const assetId = lease?.asset?.asset_id
  if (!action || !key || typeof assetId !== 'string')
    throw new NetworkFailure('transient', `${NETWORK}: the media upload lease came without its form or asset id.`)
  const bytes = await downloadMedia(fetchImpl, item)
  const form = new FormData()
  for (const f of fields) form.append(f.name, String(f.value))
  form.append('file', new Blob([bytes as BlobPart], { type: item.mimeType }), `${item.id}.${extension}`)
  const answer = await request(fetchImpl, NETWORK, action, { method: 'POST', body: form, timeoutMs: MEDIA_TIMEOUT_MS })
  if (answer.status < 200 || answer.status >= 300)
    throw new NetworkFailure('transient', `${NETWORK}: the media store refused the upload (HTTP ${answer.status}).`)
  return { assetId, url: `${action.replace(/\/+$/, '')}/${key}` }
}
