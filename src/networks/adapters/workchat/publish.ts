/**
 * WORKCHAT_NET publish: the head message into the target's channel (text; a section and image
 * blocks for images, which the network fetches from our public URLs; videos as shared files), then
 * each thread part as a reply with the head's `thread_ts`. Every step is saved as it happens; the
 * time of each non-idempotent call is saved before it, so a lost answer is settled by finding the
 * bot's message in the channel (head) or the thread (part), never by sending it again blindly.
 */
import type { PendingInput, PublishInput, PublishResult } from '../../adapter'
import { NetworkFailure } from '../../http'
import { escapeText, NETWORK, postIdOf, type Workchat, workchatOf } from './api'
import { lookForShare, shareFiles, type SharePending, type Uploaded } from './files'
import { botUserOf, findInChannel, findInThread, imageBlocks, permalinkOf, postMessage } from './messages'

interface PartAttempt {
  index: number
  at: string
}

/** The channel this target publishes into: the one chosen for the account on the post (`destinations`). */
export function channelOf(input: Pick<PublishInput, 'content'>): string {
  const channel = input.content.destinationId
  if (!channel) throw new NetworkFailure('rejected', `${NETWORK}: choose a channel for this account (destinations).`)
  return channel
}

/** The head, when it is not out yet: files for videos, else one message. */
async function sendHead(chat: Workchat, channel: string, input: PublishInput): Promise<string | PublishResult> {
  const { content } = input
  if (content.media.some((m) => m.type === 'VIDEO'))
    return shareFiles(chat, channel, input, await botUserOf(chat, input.credentials))
  const text = escapeText(content.text)
  await input.saveProgress({ headAttemptAt: input.now.toISOString() })
  const images = content.media.filter((m) => m.type === 'IMAGE')
  const ts = await postMessage(chat, {
    channel,
    text,
    ...(images.length > 0 ? { blocks: imageBlocks(content.text, images) } : {}),
  })
  await input.saveProgress({ headTs: ts })
  return ts
}

async function sendParts(chat: Workchat, channel: string, headTs: string, input: PublishInput): Promise<void> {
  const partIds = [...(input.progress.partIds ?? [])]
  for (let i = partIds.length; i < input.content.threadParts.length; i++) {
    const attempt: PartAttempt = { index: i, at: input.now.toISOString() }
    await input.saveProgress({ partAttempt: attempt })
    const text = escapeText(input.content.threadParts[i]!)
    partIds.push(await postMessage(chat, { channel, text, thread_ts: headTs }))
    await input.saveProgress({ partIds: [...partIds] })
  }
}

export async function publish(input: PublishInput): Promise<PublishResult> {
  const chat = workchatOf(input)
  const channel = channelOf(input)
  let headTs = input.progress.headTs as string | undefined
  if (!headTs) {
    const head = await sendHead(chat, channel, input)
    if (typeof head !== 'string') return head
    headTs = head
  }
  let permalink = input.progress.headPermalink
  if (!permalink) {
    permalink = await permalinkOf(chat, channel, headTs)
    await input.saveProgress({ headId: postIdOf(channel, headTs), headPermalink: permalink })
  }
  await sendParts(chat, channel, headTs, input)
  return { status: 'published', platformPostId: postIdOf(channel, headTs), permalink }
}

/**
 * A pending share is looked for again; an unconfirmed publish is settled: the head (by our text,
 * or by our file) and the part last attempted are looked up and saved when found. All there:
 * published. Something attempted and not there: `absent`, and the retry sends only what is missing.
 */
export async function checkStatus(input: PendingInput): Promise<PublishResult> {
  const chat = workchatOf(input)
  const channel = channelOf(input)
  const pending = input.progress.pending as SharePending | undefined
  if (pending?.stage === 'share') {
    const found = await lookForShare(chat, channel, input, await botUserOf(chat, input.credentials), pending)
    if (typeof found !== 'string') return found
    return publish({ ...input, progress: { ...input.progress, headTs: found, pending: undefined } })
  }
  if (!input.unconfirmed) return publish(input)
  const progress = { ...input.progress }
  const botUser = await botUserOf(chat, input.credentials)
  if (!progress.headTs) {
    const ts = await findHead(chat, channel, input, botUser)
    if (!ts) {
      // Nothing was shared: the retry completes the upload again (the files are uploaded already).
      if (progress.completeAttemptAt !== undefined) await input.saveProgress({ completeAttemptAt: undefined })
      return { status: 'absent' }
    }
    progress.headTs = ts
    await input.saveProgress({ headTs: ts })
  }
  const headTs = String(progress.headTs)
  const partIds = [...(progress.partIds ?? [])]
  const attempt = progress.partAttempt as PartAttempt | undefined
  if (attempt && attempt.index === partIds.length && partIds.length < input.content.threadParts.length) {
    const text = escapeText(input.content.threadParts[attempt.index]!)
    const ts = await findInThread(chat, channel, headTs, { attemptAt: attempt.at, botUser, text })
    if (!ts) return { status: 'absent' }
    partIds.push(ts)
    await input.saveProgress({ partIds: [...partIds] })
  }
  if (partIds.length < input.content.threadParts.length) return { status: 'absent' }
  const permalink = progress.headPermalink ?? (await permalinkOf(chat, channel, headTs))
  return { status: 'published', platformPostId: postIdOf(channel, headTs), permalink }
}

/** The head we may have sent: by our file when files were being shared, else by our text. */
async function findHead(chat: Workchat, channel: string, input: PendingInput, botUser: string): Promise<string | null> {
  const { progress } = input
  if (typeof progress.completeAttemptAt === 'string') {
    const fileId = (progress.uploaded as Uploaded[] | undefined)?.[0]?.fileId
    return fileId
      ? findInChannel(chat, channel, { attemptAt: progress.completeAttemptAt, botUser, text: null, fileId })
      : null
  }
  if (typeof progress.headAttemptAt !== 'string') return null
  const text = escapeText(input.content.text)
  return findInChannel(chat, channel, { attemptAt: progress.headAttemptAt, botUser, text })
}
