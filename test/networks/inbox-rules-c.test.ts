/**
 * The rules registry says what the inbox may do on each network; the adapter does exactly that:
 * every allowed action has its method, and no method goes unannounced (chat, messaging, workchat,
 * site, blog, devblog, short-video and pinboard networks).
 */
import { describe, expect, it } from 'vitest'
import { rulesFor } from '../../src/domain/rules'
import type { PlatformId } from '../../src/domain/vocabulary'
import { createRealAdapters } from '../../src/networks/real-adapters'

const adapters = createRealAdapters({ clients: {}, origins: {} as never })
const NETWORKS: PlatformId[] = [
  'CHAT_NET',
  'MESSAGING_NET',
  'WORKCHAT_NET',
  'SITE_NET',
  'BLOG_NET',
  'DEVBLOG_NET',
  'SHORTVIDEO_NET',
  'PINBOARD_NET',
]

describe('inbox rules match the adapters', () => {
  it.each(NETWORKS)('%s', (platform) => {
    const { inbox, insights } = rulesFor(platform)
    const adapter = adapters[platform]
    expect({
      comments: inbox.comments,
      reply: inbox.reply,
      hide: inbox.hide,
      delete: inbox.delete,
      like: inbox.like,
      mentions: inbox.mentions,
    }).toEqual({
      comments: typeof adapter.listComments === 'function',
      reply: typeof adapter.replyToComment === 'function',
      hide: typeof adapter.hideComment === 'function',
      delete: typeof adapter.deleteComment === 'function',
      like: typeof adapter.likeComment === 'function',
      mentions: typeof adapter.listMentions === 'function',
    })
    expect(inbox.note).toBeTruthy()
    // Imported posts need the listing; the short-video network's lacks its scope at sign-in (see its note).
    if (insights.importsPosts) expect(typeof adapter.listPosts).toBe('function')
    if (platform !== 'SHORTVIDEO_NET') expect(insights.importsPosts).toBe(typeof adapter.listPosts === 'function')
  })
})
