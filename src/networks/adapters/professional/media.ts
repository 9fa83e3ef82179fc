/**
 * PROFESSIONAL_NET media: images (initializeUpload, one PUT) and videos (initializeUpload, a PUT
 * per byte range collecting ETags, finalizeUpload), then the asset's status until AVAILABLE.
 * Every step is saved in the target's progress (`uploads`), so a retry or a pending check resumes
 * where it stopped: an asset is never initialised twice, a part never sent twice.
 */
import type { PublishInput, PublishMedia } from '../../adapter'
import { downloadMedia, MEDIA_TIMEOUT_MS, NetworkFailure } from '../../http'
import { call, encodeUrn, NETWORK, type Session } from './api'

/** Seconds before looking at a processing asset again. */
export const CHECK_AFTER_SEC = { IMAGE: 5, VIDEO: 15 } as const

/** What is known of one asset's upload. */
export interface UploadState {
  mediaId: string
  kind: 'IMAGE' | 'VIDEO'
  urn: string
  uploadUrl?: string
  instructions?: Array<{ uploadUrl: string; firstByte: number; lastByte: number }>
  uploadToken?: string
  /** ETags of the video parts sent, by instruction index. */
  partIds?: string[]
  uploaded?: boolean
  available?: boolean
}

const ASSET_PATH = { IMAGE: '/rest/images', VIDEO: '/rest/videos' } as const

export type MediaOutcome = { ready: true; urns: string[] } | { ready: false; checkAfterSec: number }

/** Uploads what is not uploaded yet and reports whether every asset is AVAILABLE. */
export async function prepareMedia(session: Session, input: PublishInput, owner: string): Promise<MediaOutcome> {
  const uploads: UploadState[] = [...((input.progress.uploads as UploadState[] | undefined) ?? [])]
  const save = () => input.saveProgress({ uploads: uploads.map((u) => ({ ...u })) })
  let waitSec = 0
  for (const [i, media] of input.content.media.entries()) {
    let state = uploads[i]?.mediaId === media.id ? uploads[i]! : undefined
    if (!state) {
      state = await initialize(session, media, owner)
      uploads[i] = state
      await save()
    }
    if (state.available) continue
    if (!state.uploaded) {
      await upload(session, state, media, save)
      state.uploaded = true
      await save()
    }
    const status = await assetStatus(session, state)
    if (status === 'AVAILABLE') {
      state.available = true
      await save()
    } else if (status === 'PROCESSING_FAILED') {
      throw new NetworkFailure(
        'rejected',
        `${NETWORK}: the network could not process ${media.type === 'VIDEO' ? 'the video' : 'the image'} ${media.id}; check its format and upload it again`,
      )
    } else {
      waitSec = Math.max(waitSec, CHECK_AFTER_SEC[state.kind])
    }
  }
  return waitSec > 0 ? { ready: false, checkAfterSec: waitSec } : { ready: true, urns: uploads.map((u) => u.urn) }
}

async function initialize(session: Session, media: PublishMedia, owner: string): Promise<UploadState> {
  if (media.type === 'IMAGE') {
    const answer = await call(session, 'POST', `${ASSET_PATH.IMAGE}?action=initializeUpload`, {
      json: { initializeUploadRequest: { owner } },
    })
    const value = answer.body?.value ?? {}
    if (typeof value.image !== 'string' || typeof value.uploadUrl !== 'string')
      throw new NetworkFailure('transient', `${NETWORK} did not return an upload URL for the image.`)
    return { mediaId: media.id, kind: 'IMAGE', urn: value.image, uploadUrl: value.uploadUrl }
  }
  const answer = await call(session, 'POST', `${ASSET_PATH.VIDEO}?action=initializeUpload`, {
    json: {
      initializeUploadRequest: { owner, fileSizeBytes: media.sizeBytes, uploadCaptions: false, uploadThumbnail: false },
    },
  })
  const value = answer.body?.value ?? {}
  const instructions = Array.isArray(value.uploadInstructions) ? value.uploadInstructions : null
  if (typeof value.video !== 'string' || !instructions?.length)
    throw new NetworkFailure('transient', `${NETWORK} did not return upload instructions for the video.`)
  return {
    mediaId: media.id,
    kind: 'VIDEO',
    urn: value.video,
    uploadToken: typeof value.uploadToken === 'string' ? value.uploadToken : '',
    instructions: instructions.map((p: { uploadUrl: string; firstByte: number; lastByte: number }) => ({
      uploadUrl: p.uploadUrl,
      firstByte: p.firstByte,
      lastByte: p.lastByte,
    })),
    partIds: [],
  }
}

async function upload(
  session: Session,
  state: UploadState,
  media: PublishMedia,
  save: () => Promise<void>,
): Promise<void> {
  const bytes = await downloadMedia(session.fetch, media)
  const put = (url: string, body: Uint8Array) =>
    call(session, 'PUT', url, {
      body: body as BodyInit,
      headers: { 'content-type': 'application/octet-stream' },
      timeoutMs: MEDIA_TIMEOUT_MS,
    })
  if (state.kind === 'IMAGE') {
    await put(state.uploadUrl!, bytes)
    return
  }
  const partIds = (state.partIds ??= [])
  for (const [j, part] of state.instructions!.entries()) {
    if (partIds[j]) continue
    const answer = await put(part.uploadUrl, bytes.subarray(part.firstByte, part.lastByte + 1))
    const etag = answer.headers.get('etag')
    if (!etag)
      throw new NetworkFailure('transient', `${NETWORK} did not acknowledge part ${j + 1} of the video upload.`)
    partIds[j] = etag
    await save()
  }
  await call(session, 'POST', `${ASSET_PATH.VIDEO}?action=finalizeUpload`, {
    json: {
      finalizeUploadRequest: { video: state.urn, uploadToken: state.uploadToken ?? '', uploadedPartIds: partIds },
    },
  })
}

async function assetStatus(session: Session, state: UploadState): Promise<string> {
  const answer = await call(session, 'GET', `${ASSET_PATH[state.kind]}/${encodeUrn(state.urn)}`)
  return typeof answer.body?.status === 'string' ? answer.body.status : 'PROCESSING'
}
