/**
 * The unified inbox list from two lists the services keep apart (comments, mentions), each newest
 * first with its own cursor: merged by time, cut at the page size, and a cursor that says where each
 * source goes on (`<comments>~<mentions>`; `x` for a source used up, empty for its start).
 */

export interface SourcePage<T> {
  items: T[]
  nextCursor: string | null
  /** The cursor this page was read from (undefined: the start). */
  cursor: string | undefined
}

interface Item {
  id: string
  createdAt: string
}

const DONE = 'x'

/** The two sources' cursors of a merged cursor: undefined for the start, null for a source used up. */
export function splitCursor(cursor: string | undefined): [string | null | undefined, string | null | undefined] {
  if (!cursor) return [undefined, undefined]
  const [a = '', b = ''] = cursor.split('~')
  const one = (v: string) => (v === DONE ? null : v === '' ? undefined : v)
  return [one(a), one(b)]
}

const newestFirst = (a: Item, b: Item) =>
  a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0

/** Where a source goes on after the merged page took `taken` of its items: null when nothing is left. */
function nextOf<T extends Item>(page: SourcePage<T> | null, taken: number): string | null {
  if (!page) return null
  if (taken === 0) return page.items.length === 0 ? null : (page.cursor ?? '')
  if (taken < page.items.length || page.nextCursor !== null) return page.items[taken - 1]!.id
  return null
}

/** The merged page (newest first, at most `limit`) and the cursor of the next one (null: none). */
export function mergePages<T extends Item>(
  sources: [SourcePage<T> | null, SourcePage<T> | null],
  limit: number,
): { items: T[]; nextCursor: string | null } {
  const all = sources.flatMap((s, i) => (s ? s.items.map((item) => ({ item, from: i })) : []))
  all.sort((a, b) => newestFirst(a.item, b.item))
  const page = all.slice(0, limit)
  const taken = [0, 1].map((i) => page.filter((p) => p.from === i).length)
  const next = sources.map((s, i) => nextOf(s, taken[i]!))
  const nextCursor = next.every((n) => n === null) ? null : next.map((n) => (n === null ? DONE : n)).join('~')
  return { items: page.map((p) => p.item), nextCursor }
}
