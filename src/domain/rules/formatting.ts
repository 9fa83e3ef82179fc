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
  RELAY_NET: plain({
    mentions: null,
    note: 'Sent as plain text; clients link URLs and may show #tags. A mention needs a nostr: reference, which the service does not write.',
  }),
  COMMUNITY_NET: plain({
    markdown: true,
    hashtags: null,
    mentions: '@user@instance',
    note: 'The body is Markdown; a community is linked as !name@instance.',
  }),
  BLOG_NET: plain({
    hashtags: null,
    mentions: null,
    note: 'Each paragraph becomes a text block, shown as typed; tags go in the `tags` option, not in the text.',
  }),
  LOCAL_NET: plain({
    links: 'not_clickable',
    hashtags: null,
    mentions: null,
    note: 'Shown as plain text on the business profile; a link leads through the call-to-action button, not the text.',
  }),
  WORKCHAT_NET: plain({
    markdown: true,
    hashtags: null,
    mentions: null,
    note: '*bold*, _italic_ and ~strike~ render; &, < and > are escaped, so <!channel>, <@U123> and <url|label> show as typed and ping nobody. Bare links are linked by the network.',
  }),
  FORUM_NET: plain({
    markdown: true,
    hashtags: null,
    mentions: 'u/username',
    note: 'A self post body is Markdown; r/name and u/name are linked by the network.',
  }),
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
