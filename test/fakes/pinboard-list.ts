/**
 * The pinboard fake's "List Pins" (`GET /v5/pins`): the user's own pins, newest first,
 * `page_size` 1 to 250 (default 25) and the opaque `bookmark` of the previous answer; with
 * `pin_metrics=true` each pin carries `pin_metrics` (`90d` and `lifetime_metrics`: impression,
 * pin_click, reaction, comment...).
 */
import type { FakeReply, FakeRequest } from './fake-server'
import type { FakePin } from './pinboard'

export function listPins(
  req: FakeRequest,
  state: { pins: Map<string, FakePin>; analytics: Map<string, { IMPRESSION: number; SAVE: number }> },
): FakeReply {
  const size = Number(req.query.get('page_size') ?? 25)
  if (!Number.isInteger(size) || size < 1 || size > 250)
    return { status: 400, json: { code: 1, message: 'Invalid parameters: page_size must be 1 to 250.' } }
  const bookmark = req.query.get('bookmark')
  const start = bookmark ? Number(Buffer.from(bookmark, 'base64').toString('utf8').replace('pins:', '')) : 0
  const all = [...state.pins.values()].reverse()
  const more = start + size < all.length
  const withMetrics = req.query.get('pin_metrics') === 'true'
  const items = all.slice(start, start + size).map(({ images: _i, ...pin }) => {
    const a = state.analytics.get(pin.id) ?? { IMPRESSION: 0, SAVE: 0 }
    const lifetime = {
      impression: a.IMPRESSION,
      save: a.SAVE,
      pin_click: 3,
      outbound_click: 1,
      reaction: 2,
      comment: 1,
    }
    return withMetrics ? { ...pin, pin_metrics: { '90d': lifetime, lifetime_metrics: lifetime } } : pin
  })
  return { json: { items, bookmark: more ? Buffer.from(`pins:${start + size}`).toString('base64') : null } }
}
