/**
 * A target as a Neue Post Format post: the title as a `heading1` text block, the images and the
 * video as blocks whose media are uploaded with the request (each named by an `identifier`, the
 * key of its part in the multipart body), each line of the caption as a text block (a line over
 * 4,096 code points split at a space), and `linkUrl` as a link block. The same blocks are what a
 * post found on the blog is compared with when a publish is reconciled.
 */
import {
  BLOG_NET_RULES,
  BLOG_MAX_BLOCKS,
  BLOG_MAX_IMAGES,
  BLOG_MAX_TAGS,
  BLOG_MAX_VIDEOS,
  BLOG_POST_STATES,
  BLOG_TAG_MAX_LENGTH,
  BLOG_TEXT_BLOCK_MAX,
} from '../../../domain/rules/blog-network'
import { shortenToFit } from '../../../domain/target-title'
import type { PublishMedia, TargetContent } from '../../adapter'
import { NetworkFailure } from '../../http'
import { NETWORK } from './api'

export interface PostParams {
  content: Array<Record<string, unknown>>
  state: string
  tags: string[]
  sourceUrl: string | null
}

const refuse = (words: string) => new NetworkFailure('rejected', `${NETWORK}: ${words}`)

/** A line as text blocks of at most 4,096 code points, cut at the last space that fits. */
export function textChunks(line: string): string[] {
  const points = Array.from(line)
  const chunks: string[] = []
  let start = 0
  while (points.length - start > BLOG_TEXT_BLOCK_MAX) {
    const window = points.slice(start, start + BLOG_TEXT_BLOCK_MAX)
    const space = window.lastIndexOf(' ')
    const cut = space > 0 ? space + 1 : BLOG_TEXT_BLOCK_MAX
    chunks.push(window.slice(0, cut).join('').trimEnd())
    start += cut
  }
  chunks.push(points.slice(start).join(''))
  return chunks.filter((c) => c.trim() !== '')
}

/**
 * The heading: the post's `title`. A title the registry derived from the caption's first line (no
 * `title` set) is no heading: that line is published as the first paragraph, as written.
 */
export function heading(content: TargetContent): string | null {
  const title = content.title?.trim()
  if (!title || !BLOG_NET_RULES.title) return null
  const firstLine = content.text.split(/\r\n|\r|\n/, 1)[0]!.trim()
  return title === shortenToFit(firstLine, BLOG_NET_RULES.title) ? null : title
}

/** The texts of the post's text blocks, in order: the heading, then each caption line. */
export function textBlocks(content: TargetContent): Array<{ text: string; subtype?: string }> {
  const blocks: Array<{ text: string; subtype?: string }> = []
  const title = heading(content)
  if (title) blocks.push({ text: title, subtype: 'heading1' })
  for (const line of content.text.split(/\r\n|\r|\n/)) for (const text of textChunks(line)) blocks.push({ text })
  return blocks
}

/** The multipart key of a media item: unique in the request, stable across attempts. */
export const identifierOf = (index: number) => `media-${index + 1}`

function mediaObject(media: PublishMedia, index: number): Record<string, unknown> {
  return {
    type: media.mimeType,
    identifier: identifierOf(index),
    ...(media.width ? { width: media.width } : {}),
    ...(media.height ? { height: media.height } : {}),
  }
}

/** This account's options, checked again here (the validator checks them first). */
function options(content: TargetContent): Pick<PostParams, 'state' | 'tags' | 'sourceUrl'> {
  const o = content.targetOptions ?? {}
  const state = typeof o.state === 'string' ? o.state : 'published'
  if (!(BLOG_POST_STATES as readonly string[]).includes(state))
    throw refuse(`state must be one of ${BLOG_POST_STATES.join(', ')}.`)
  const tags = (Array.isArray(o.tags) ? o.tags : []).map((t) => String(t).trim()).filter((t) => t !== '')
  if (tags.length > BLOG_MAX_TAGS) throw refuse(`a post takes at most ${BLOG_MAX_TAGS} tags (${tags.length} given).`)
  const long = tags.find((t) => Array.from(t).length > BLOG_TAG_MAX_LENGTH)
  if (long) throw refuse(`a tag is at most ${BLOG_TAG_MAX_LENGTH} characters ("${long.slice(0, 20)}…").`)
  if (tags.some((t) => t.includes(',')))
    throw refuse('a tag cannot contain a comma (the network takes tags comma-separated).')
  const sourceUrl = typeof o.sourceUrl === 'string' && o.sourceUrl.trim() !== '' ? o.sourceUrl.trim() : null
  return { state, tags, sourceUrl }
}

/** The post to create, or a refusal naming the limit it breaks. */
export function buildPost(content: TargetContent): PostParams {
  const images = content.media.filter((m) => m.type === 'IMAGE')
  const videos = content.media.filter((m) => m.type === 'VIDEO')
  if (images.length > BLOG_MAX_IMAGES) throw refuse(`a post takes at most ${BLOG_MAX_IMAGES} images.`)
  if (videos.length > BLOG_MAX_VIDEOS) throw refuse('a post takes one uploaded video.')
  const blocks: Array<Record<string, unknown>> = []
  const texts = textBlocks(content)
  const [heading] = texts
  if (heading?.subtype) blocks.push({ type: 'text', ...texts.shift() })
  content.media.forEach((m, i) => {
    if (m.type === 'IMAGE')
      blocks.push({ type: 'image', media: [mediaObject(m, i)], ...(m.altText ? { alt_text: m.altText } : {}) })
    else blocks.push({ type: 'video', media: mediaObject(m, i) })
  })
  for (const t of texts) blocks.push({ type: 'text', ...t })
  if (content.linkUrl) blocks.push({ type: 'link', url: content.linkUrl })
  if (blocks.length === 0) throw refuse('a post needs text, media or a link.')
  if (blocks.length > BLOG_MAX_BLOCKS) throw refuse(`a post holds at most ${BLOG_MAX_BLOCKS} blocks (lines of text).`)
  return { content: blocks, ...options(content) }
}

/** The JSON body of `POST /v2/blog/{id}/posts`. */
export function postJson(params: PostParams): Record<string, unknown> {
  return {
    content: params.content,
    state: params.state,
    ...(params.tags.length > 0 ? { tags: params.tags.join(',') } : {}),
    ...(params.sourceUrl ? { source_url: params.sourceUrl } : {}),
  }
}

/** What identifies our post among the blog's: block kinds, texts and link, and the tags. */
export function fingerprint(blocks: Array<Record<string, any>>, tags: string[]): string {
  const parts = blocks.map((b) =>
    b.type === 'text' ? `text:${b.subtype ?? ''}:${b.text ?? ''}` : b.type === 'link' ? `link:${b.url ?? ''}` : b.type,
  )
  return JSON.stringify([parts, [...tags].sort()])
}
