/**
 * How each network shows a caption: markup, links, line breaks, hashtags and mentions, as the
 * service sends text (exactly as written), from each network's own documentation; served by
 * `GET /v1/platforms` and the MCP tool `platform_limits`.
 */
import type { PlatformId } from '../vocabulary'
import type { CaptionFormatting } from './schema'

const plain = (extra: Partial<CaptionFormatting>): CaptionFormatting => ({
  markdown: false,
  links: 'clickable',
  lineBreaks: true,
  hashtags: '#tag',
  mentions: '@username',
  note: null,
  ...extra,
})

export const FORMATTING: Record<PlatformId, CaptionFormatting> = {
  PHOTO_NET: plain({ links: 'not_clickable', note: 'A link in a caption is shown as plain text.' }),
  SHORTVIDEO_NET: plain({ links: 'not_clickable' }),
  MICROBLOG_NET: plain({ links: 'shortened', note: 'Every link is wrapped in a short link and counts `urlWeight`.' }),
  MESSAGING_NET: plain({ note: 'Sent without a parse mode: asterisks and underscores show as typed.' }),
  SOCIALGRAPH_NET: plain({ mentions: null, note: 'An @name in text is not linked through the API.' }),
  PROFESSIONAL_NET: plain({
    hashtags: null,
    mentions: null,
    note: 'Reserved characters (# @ * _ and brackets) are escaped, so they show as typed and nothing is linked.',
  }),
  TEXTTHREAD_NET: plain({ note: 'The first #tag becomes the post topic.' }),
  OPENPROTOCOL_NET: plain({
    mentions: '@handle.domain',
    note: 'Links, mentions and hashtags are linked by the service; a link counts as written.',
  }),
  VIDEOSHARE_NET: plain({ mentions: '@handle' }),
  PINBOARD_NET: plain({ links: 'not_clickable', mentions: null, note: 'The pin links to `linkUrl`, not to text.' }),
  FEDERATED_NET: plain({ links: 'shortened', mentions: '@user@domain', note: 'A link counts `urlWeight`.' }),
  CHAT_NET: plain({ markdown: true, hashtags: null, mentions: '<@userId>' }),
  SITE_NET: plain({
    hashtags: null,
    mentions: null,
    note: 'Sent as HTML: the text escaped, blank lines as paragraphs, single line breaks kept. Tags and categories are per-target options.',
  }),
  DEVBLOG_NET: plain({
    markdown: true,
    hashtags: null,
    note: 'The caption is the Markdown body of the article; tags are a per-target option, not #words.',
  }),
}
