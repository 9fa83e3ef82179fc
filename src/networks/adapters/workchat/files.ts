/**
 * WORKCHAT_NET's external upload flow for videos: `files.getUploadURLExternal` (name and size) per
 * file, the bytes POSTed to the `upload_url` it returns, then one `files.completeUploadExternal`
 * sharing all of them into the channel with the caption as `initial_comment`. The completion does
 * not return the message it makes (the share happens after), so the message is found in the
 * channel's history by one of our file ids, polled through the engine's pending state.
 */
import type { PublishInput, PublishMedia, PublishResult } from '../../adapter'
import { downloadMedia, MEDIA_TIMEOUT_MS, NetworkFailure, request } from '../../http'
import { call, escapeText, NETWORK, type Workchat } from './api'
import { findInChannel } from './messages'

/** Seconds between looks for the shared files' message, and how many looks before giving up this attempt. */
export const SHARE_POLL_SEC = 5
export const SHARE_POLLS = 12

export interface Uploaded {
  mediaId: string
  fileId: string
}

type Pending = Extract<PublishResult, { status: 'pending' }>

export interface SharePending {
  stage: 'share'
  fileId: string
  polls: number
}

const EXTENSIONS: Record<string, string> = { 'video/mp4': 'mp4', 'video/quicktime': 'mov', 'video/webm': 'webm' }
const filenameOf = (m: PublishMedia) =>
  `${m.id}.${EXTENSIONS[m.mimeType] ?? m.mimeType.split('/')[1]?.replace(/[^a-z0-9]/gi, '') ?? 'bin'}`

/** Registers and uploads one file (once: its id is saved after the bytes are in). */
async function upload(chat: Workchat, input: PublishInput, media: PublishMedia): Promise<Uploaded> {
  const bytes = await downloadMedia(input.fetch, media)
  const registered = await call(chat, 'files.getUploadURLExternal', {
    form: {
      filename: filenameOf(media),
      length: String(bytes.byteLength),
      ...(media.altText ? { alt_txt: media.altText.slice(0, 1000) } : {}),
    },
  })
  if (typeof registered.upload_url !== 'string' || typeof registered.file_id !== 'string')
    throw new NetworkFailure('transient', `${NETWORK} did not return where to upload the file.`)
  const answer = await request(input.fetch, NETWORK, registered.upload_url, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: bytes as BodyInit,
    timeoutMs: MEDIA_TIMEOUT_MS,
  })
  if (answer.status !== 200)
    throw new NetworkFailure('transient', `${NETWORK}: the file upload was refused (HTTP ${answer.status}).`)
  return { mediaId: media.id, fileId: registered.file_id }
}

/** Uploads what is not uploaded yet, completes once (the attempt saved first), then looks for the message. */
export async function shareFiles(
  chat: Workchat,
  channel: string,
  input: PublishInput,
  botUser: string,
): Promise<string | Pending> {
  const uploaded = [...((input.progress.uploaded as Uploaded[] | undefined) ?? [])]
  if (input.progress.completeAttemptAt === undefined) {
    for (const media of input.content.media.slice(uploaded.length)) {
      uploaded.push(await upload(chat, input, media))
      await input.saveProgress({ uploaded: [...uploaded] })
    }
    const completeAttemptAt = input.now.toISOString()
    await input.saveProgress({ completeAttemptAt })
    await call(chat, 'files.completeUploadExternal', {
      json: {
        files: uploaded.map((u) => ({ id: u.fileId })),
        channel_id: channel,
        ...(input.content.text ? { initial_comment: escapeText(input.content.text) } : {}),
      },
    })
  }
  return lookForShare(chat, channel, input, botUser, { stage: 'share', fileId: uploaded[0]!.fileId, polls: 0 })
}

/** The shared files' message: its ts saved as the head, or another look later. */
export async function lookForShare(
  chat: Workchat,
  channel: string,
  input: Pick<PublishInput, 'progress' | 'saveProgress'>,
  botUser: string,
  state: SharePending,
): Promise<string | Pending> {
  const attemptAt = String(input.progress.completeAttemptAt)
  const ts = await findInChannel(chat, channel, { attemptAt, botUser, text: null, fileId: state.fileId })
  if (ts) {
    await input.saveProgress({ headTs: ts, pending: undefined })
    return ts
  }
  if (state.polls >= SHARE_POLLS)
    throw new NetworkFailure('transient', `${NETWORK}: the files were uploaded but their message has not appeared yet.`)
  const next: SharePending = { ...state, polls: state.polls + 1 }
  await input.saveProgress({ pending: next })
  return { status: 'pending', state: next, checkAfterSec: SHARE_POLL_SEC }
}
