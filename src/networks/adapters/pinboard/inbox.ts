/**
 * PINBOARD_NET's imported posts (Pinterest API v5, "List Pins"): `GET /v5/pins` with
 * `pin_metrics=true`, newest first, `page_size` and the answer's `bookmark` for the next page.
 * Lifetime metrics give impressions, pin clicks, reactions and comments. The API offers no way to
 * read or answer a pin's comments, so nothing of the inbox is read here.
 */
import type { ListPostsInput, NetworkPostPage } from '../../adapter'
import { metric, metricSum } from '../../metrics'
import { PIN_URL, pinClient } from './api'

/** Pins per page (the reference allows up to 250). */
export const PINS_PER_PAGE = 100

type Item = Record<string, any>

/** A pin's `created_at` has no zone: it is UTC. */
const createdAt = (value: unknown) =>
  new Date(/Z|[+-]\d\d:?\d\d$/.test(String(value)) ? String(value) : `${String(value)}Z`)

function imageOf(pin: Item): string[] {
  const images = pin.media?.images
  if (!images || typeof images !== 'object') return []
  const best = images['1200x'] ?? images['600x'] ?? Object.values(images)[0]
  return typeof best?.url === 'string' ? [best.url] : []
}

export async function listPosts(input: ListPostsInput): Promise<NetworkPostPage> {
  const answer = await pinClient(input)('GET', '/v5/pins', {
    query: {
      page_size: String(PINS_PER_PAGE),
      pin_metrics: 'true',
      ...(input.cursor ? { bookmark: input.cursor } : {}),
    },
  })
  const items = (Array.isArray(answer.items) ? answer.items : []) as Item[]
  const recent = items.filter((p) => createdAt(p.created_at) >= input.since)
  const posts = recent.map((p) => {
    const m = (p.pin_metrics?.lifetime_metrics ?? {}) as Item
    return {
      platformPostId: String(p.id),
      permalink: PIN_URL(String(p.id)),
      text: [p.title, p.description].filter((t) => typeof t === 'string' && t !== '').join('\n'),
      publishedAt: createdAt(p.created_at),
      mediaUrls: imageOf(p),
      metrics: {
        likes: metric(m.reaction),
        comments: metric(m.comment),
        shares: null,
        views: null,
        saves: metric(m.save),
        clicks: metricSum(m.pin_click, m.outbound_click),
        impressions: metric(m.impression),
        reach: null,
      },
    }
  })
  const bookmark = typeof answer.bookmark === 'string' && answer.bookmark ? answer.bookmark : null
  return { posts, nextCursor: recent.length === items.length ? bookmark : null }
}
