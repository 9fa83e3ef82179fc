/**
 * The calendar's reads: a workspace's posts in a time range as the calendar draws them (a caption's
 * first words, its networks, how many targets failed), in one statement whatever their number. A
 * view asks for at most `perSlot` posts per day or per hour of the workspace zone, with how many
 * the slot holds, so a crowded month costs the rows it shows, not the rows it has.
 */
import { type SQL, sql } from 'drizzle-orm'
import type { PlatformId, PostStatus } from '../../domain/vocabulary'
import { resultRows } from '../table-rows'
import type { DbOrTx } from '../types'
import { postScopeConditions, type ScopeFilter } from './scope'

/** Narrows the posts a calendar shows; every field optional, all of them applied together. */
export interface CalendarPostFilter extends ScopeFilter {
  accountId?: string | undefined
  platform?: PlatformId | undefined
  statuses?: readonly PostStatus[] | undefined
}

/** One post as a calendar draws it. */
export interface CalendarPostRow {
  id: string
  status: PostStatus
  /** The caption's first 140 characters. */
  caption: string
  scheduledAt: Date | null
  /** When it went out, else when it is planned. */
  at: Date
  /** `YYYY-MM-DDTHH:mm` in the workspace zone. */
  local: string
  platforms: PlatformId[]
  failedTargets: number
  /** How many posts its slot (day, hour, or the whole list) holds. */
  slotTotal: number
}

export interface CalendarRangeQuery {
  workspaceId: string
  timeZone: string
  from: Date
  to: Date
  filter: CalendarPostFilter
  /**
   * Where each slot of the view starts (days or hours of the zone, ascending, `from` first), so the
   * statement counts and cuts per slot without converting every post's time; none: one slot (a list).
   */
  slotStarts: Date[] | null
  /** At most this many posts per slot (earliest first, or latest first with `newestFirst`). */
  perSlot: number
  /** Posts to skip in the slot (a list page's offset). */
  skip?: number
  newestFirst?: boolean
}

const AT = sql`coalesce(p.published_at, p.scheduled_at)`

function filterOf(f: CalendarPostFilter): SQL[] {
  const out: SQL[] = []
  if (f.statuses?.length) out.push(sql`p.status = any(${sql.param([...f.statuses])}::text[])`)
  if (f.accountId)
    out.push(sql`exists (select 1 from targets t where t.post_id = p.id and t.account_id = ${f.accountId})`)
  if (f.platform) out.push(sql`exists (select 1 from targets t where t.post_id = p.id and t.platform = ${f.platform})`)
  out.push(...postScopeConditions(sql`p.id`, f))
  return out
}

/**
 * The posts of `[from, to)` that the calendar shows, earliest first (latest first with
 * `newestFirst`); only the rows kept have their zone time written out and their targets read.
 */
export async function selectCalendarPosts(db: DbOrTx, q: CalendarRangeQuery): Promise<CalendarPostRow[]> {
  const conditions = [
    sql`p.workspace_id = ${q.workspaceId}`,
    sql`${AT} >= ${q.from.toISOString()}::timestamptz`,
    sql`${AT} < ${q.to.toISOString()}::timestamptz`,
    ...filterOf(q.filter),
  ]
  const order = q.newestFirst ? sql.raw('desc') : sql.raw('asc')
  const slotOf = q.slotStarts
    ? sql`width_bucket(${AT}, ${sql.param(q.slotStarts.map((d) => d.toISOString()))}::timestamptz[])`
    : sql`0`
  const skip = Math.max(0, q.skip ?? 0)
  // Only ids and times go through the sort; the kept rows' caption and targets are read after the cut.
  const result = await db.execute(sql`with ranked as (
      select p.id, ${AT} as at, row_number() over slot as rank,
        count(*) over (slot rows between unbounded preceding and unbounded following)::int as slot_total
      from posts p where ${sql.join(conditions, sql` and `)}
      window slot as (partition by ${slotOf} order by ${AT} ${order}, p.id ${order})
    )
    select k.id, p.status, left(p.caption, 140) as caption, p.scheduled_at, k.at, k.slot_total,
      to_char(k.at at time zone ${q.timeZone}, 'YYYY-MM-DD"T"HH24:MI') as local,
      coalesce(tg.platforms, '{}') as platforms, coalesce(tg.failed, 0)::int as failed
    from ranked k join posts p on p.id = k.id left join lateral (
      select array_agg(t.platform order by t.position) as platforms,
        count(*) filter (where t.status = 'FAILED') as failed
      from targets t where t.post_id = k.id
    ) tg on true
    where k.rank > ${skip} and k.rank <= ${skip + q.perSlot}
    order by k.at ${order}, k.id ${order}`)
  return resultRows(result).map(toCalendarPostRow)
}

const dateOf = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string | Date))

/** The drivers answer arrays as arrays (PGlite) or as `{a,b}` text (some pools): both read here. */
function textArray(v: unknown): string[] {
  if (Array.isArray(v)) return v as string[]
  if (typeof v === 'string' && v.startsWith('{')) return v.slice(1, -1).split(',').filter(Boolean)
  return []
}

function toCalendarPostRow(r: Record<string, unknown>): CalendarPostRow {
  return {
    id: r.id as string,
    status: r.status as PostStatus,
    caption: (r.caption as string | null) ?? '',
    scheduledAt: dateOf(r.scheduled_at),
    at: dateOf(r.at)!,
    local: r.local as string,
    platforms: textArray(r.platforms) as PlatformId[],
    failedTargets: Number(r.failed),
    slotTotal: Number(r.slot_total),
  }
}
