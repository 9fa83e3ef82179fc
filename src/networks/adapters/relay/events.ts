/**
 * The events this service signs: a kind 1 text note (NIP-01), thread parts as replies with NIP-10
 * marked `e` tags (root, reply) and the author's `p` tag, media as public URLs in the content with
 * one NIP-92 `imeta` tag each, and a kind 5 deletion request (NIP-09) naming the notes.
 */
import type { EventTemplate } from 'nostr-tools'
import type { PublishMedia } from '../../adapter'

export const NOTE_KIND = 1
export const DELETION_KIND = 5

const seconds = (now: Date) => Math.floor(now.getTime() / 1000)

/** NIP-92: one `imeta` tag per URL in the content, its fields as "key value" strings. */
function imetaOf(media: PublishMedia): string[] {
  const tag = ['imeta', `url ${media.url}`, `m ${media.mimeType}`]
  if (media.width !== null && media.height !== null) tag.push(`dim ${media.width}x${media.height}`)
  if (media.altText) tag.push(`alt ${media.altText}`)
  tag.push(`size ${media.sizeBytes}`)
  return tag
}

/** The head note: the text as written, then each medium's URL on its own line. */
export function headNote(text: string, media: PublishMedia[], now: Date): EventTemplate {
  const content = [text, ...media.map((m) => m.url)].filter((p) => p !== '').join('\n')
  return { kind: NOTE_KIND, created_at: seconds(now), content, tags: media.map(imetaOf) }
}

/** A thread part: a reply to the previous note, in the thread whose root is the head (NIP-10). */
export function replyNote(
  text: string,
  thread: { rootId: string; parentId: string; author: string; relay: string },
  now: Date,
): EventTemplate {
  const tags =
    thread.rootId === thread.parentId
      ? [['e', thread.rootId, thread.relay, 'root', thread.author]]
      : [
          ['e', thread.rootId, thread.relay, 'root', thread.author],
          ['e', thread.parentId, thread.relay, 'reply', thread.author],
        ]
  return { kind: NOTE_KIND, created_at: seconds(now), content: text, tags: [...tags, ['p', thread.author]] }
}

/** NIP-09: a request to delete these notes (with the kind they are, `k`). */
export function deletion(ids: string[], now: Date): EventTemplate {
  return {
    kind: DELETION_KIND,
    created_at: seconds(now),
    content: 'Deleted by the author.',
    tags: [...ids.map((id) => ['e', id]), ['k', String(NOTE_KIND)]],
  }
}
