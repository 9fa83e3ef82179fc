/**
 * The federated fake's inbox side, from mastodon/documentation: methods/accounts.md (an account's
 * statuses, `limit` up to 40, `max_id`, `exclude_replies`, a `Link` header to the next page),
 * methods/statuses.md (`/context`: ancestors and descendants; `/favourite` answers the Status),
 * methods/notifications.md (`types[]`, `limit` up to 80, `max_id`, `Link`). A missing status is
 * 404 `{"error":"Record not found"}`.
 */
import type { FakeReply, FakeRequest, FakeRoute } from './fake-server'
import type { FederatedStatus } from './federated'

export interface FederatedAuthor {
  id: string
  username: string
  acct: string
  display_name: string
  avatar: string
}

interface Ctx {
  state: { statuses: FederatedStatus[] }
  now: () => Date
  guarded: (
    route: string,
    h: (req: FakeRequest, params: string[]) => FakeReply,
  ) => (req: FakeRequest, params: string[]) => Promise<FakeReply>
  statusJson: (s: FederatedStatus) => Record<string, unknown>
  account: () => { id: string; acct: string }
  serial: () => string
}

const missing: FakeReply = { status: 404, json: { error: 'Record not found' } }
const byNewest = <T extends { id: string }>(a: T, b: T) => Number(b.id) - Number(a.id)

/** Items below `max_id`, at most `limit` (capped at `cap`), and the `Link` to the next page. */
function paged<T extends { id: string }>(req: FakeRequest, items: T[], cap: number, base: string) {
  const limit = Math.min(Number(req.query.get('limit') ?? 20) || 20, cap)
  const maxId = req.query.get('max_id')
  const list = items
    .filter((x) => !maxId || Number(x.id) < Number(maxId))
    .sort(byNewest)
    .slice(0, limit)
  const headers: Record<string, string> = {}
  if (list.length)
    headers.link = `<${base}?max_id=${list.at(-1)!.id}>; rel="next", <${base}?min_id=${list[0]!.id}>; rel="prev"`
  return { list, headers }
}

export function federatedInbox(ctx: Ctx) {
  const favourites = new Set<string>()
  const notifications: Array<{ id: string; type: string; created_at: string; statusId: string }> = []
  const find = (id: string) => ctx.state.statuses.find((s) => s.id === id)
  const root = (s: FederatedStatus): FederatedStatus =>
    s.inReplyToId && find(s.inReplyToId) ? root(find(s.inReplyToId)!) : s
  const descendantsOf = (id: string): FederatedStatus[] => {
    const direct = ctx.state.statuses.filter((s) => s.inReplyToId === id)
    return direct.flatMap((s) => [s, ...descendantsOf(s.id)])
  }

  const addStatus = (
    text: string,
    options: { author?: FederatedAuthor; inReplyToId?: string | null; createdAt: string },
  ) => {
    const id = ctx.serial()
    const status: FederatedStatus = {
      id,
      text,
      visibility: 'public',
      inReplyToId: options.inReplyToId ?? null,
      mediaIds: [],
      idempotencyKey: null,
      url: `https://fed.example/@${options.author?.acct ?? 'alice'}/${id}`,
      favourites_count: 0,
      replies_count: 0,
      reblogs_count: 0,
      createdAt: options.createdAt,
      ...(options.author ? { author: options.author } : {}),
    }
    ctx.state.statuses.push(status)
    if (options.author && text.includes(`@${ctx.account().acct}`))
      notifications.push({
        id: String(9000 + notifications.length),
        type: 'mention',
        created_at: options.createdAt,
        statusId: id,
      })
    return status
  }

  const routes: FakeRoute[] = [
    [
      'GET',
      /^\/api\/v1\/accounts\/([^/]+)\/statuses$/,
      ctx.guarded('account-statuses', (req, [id]) => {
        if (id !== ctx.account().id) return missing
        const own = ctx.state.statuses.filter(
          (s) => !s.author && !(req.query.get('exclude_replies') === 'true' && s.inReplyToId),
        )
        const { list, headers } = paged(req, own, 40, `/api/v1/accounts/${id}/statuses`)
        return { headers, json: list.map(ctx.statusJson) }
      }),
    ],
    [
      'GET',
      /^\/api\/v1\/statuses\/([^/]+)\/context$/,
      ctx.guarded('status-context', (_req, [id]) => {
        const s = find(id!)
        if (!s) return missing
        const ancestors: FederatedStatus[] = []
        for (let cur = s; cur.inReplyToId && find(cur.inReplyToId); cur = find(cur.inReplyToId)!)
          ancestors.unshift(find(cur.inReplyToId)!)
        return {
          json: { ancestors: ancestors.map(ctx.statusJson), descendants: descendantsOf(s.id).map(ctx.statusJson) },
        }
      }),
    ],
    [
      'GET',
      '/api/v1/notifications',
      ctx.guarded('notifications', (req) => {
        const types = req.query.getAll('types[]')
        const items = notifications
          .filter((n) => !types.length || types.includes(n.type))
          .filter((n) => find(n.statusId))
        const { list, headers } = paged(req, items, 80, '/api/v1/notifications')
        return {
          headers,
          json: list.map((n) => {
            const status = ctx.statusJson(find(n.statusId)!)
            return { id: n.id, type: n.type, created_at: n.created_at, account: status.account, status }
          }),
        }
      }),
    ],
    [
      'POST',
      /^\/api\/v1\/statuses\/([^/]+)\/favourite$/,
      ctx.guarded('favourite', (_req, [id]) => {
        const s = find(id!)
        if (!s) return missing
        if (!favourites.has(s.id)) s.favourites_count++
        favourites.add(s.id)
        return { json: { ...ctx.statusJson(s), favourited: true } }
      }),
    ],
  ]
  return { routes, favourites, notifications, addStatus, root }
}
