/** The unified inbox list: comments and mentions (two lists with their own cursors) merged page by page. */
import { describe, expect, it } from 'vitest'
import { mergePages, type SourcePage, splitCursor } from '../../../src/dashboard/pages/inbox/merge'

interface Row {
  id: string
  createdAt: string
}

/** A newest-first source of `rows` read like the service: `limit` items after the cursor's id. */
function reader(rows: Row[]) {
  return (cursor: string | null | undefined, limit: number): SourcePage<Row> | null => {
    if (cursor === null) return null
    const from = cursor ? rows.findIndex((r) => r.id === cursor) + 1 : 0
    const items = rows.slice(from, from + limit)
    const nextCursor = from + limit < rows.length ? items[items.length - 1]!.id : null
    return { items, nextCursor, cursor }
  }
}

const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 12, minute)).toISOString()

describe('mergePages', () => {
  it('walks both sources newest first to the end, each item once', () => {
    const comments = Array.from({ length: 7 }, (_, i) => ({ id: `c${i}`, createdAt: at(59 - i * 3) }))
    const mentions = Array.from({ length: 4 }, (_, i) => ({ id: `m${i}`, createdAt: at(58 - i * 7) }))
    const [c, m] = [reader(comments), reader(mentions)]
    const seen: Row[] = []
    let cursor: string | undefined
    for (let guard = 0; guard < 10; guard++) {
      const [a, b] = splitCursor(cursor)
      const page = mergePages([c(a, 3), m(b, 3)], 3)
      seen.push(...page.items)
      if (!page.nextCursor) break
      cursor = page.nextCursor
    }
    // Ties (c5 and m2) go by id, newest-first order as the services keep it.
    const expected = [...comments, ...mentions].sort(
      (x, y) => y.createdAt.localeCompare(x.createdAt) || y.id.localeCompare(x.id),
    )
    expect(seen.map((r) => r.id)).toEqual(expected.map((r) => r.id))
  })

  it('one source filtered out, or both empty', () => {
    const only = mergePages([{ items: [{ id: 'c1', createdAt: at(1) }], nextCursor: null, cursor: undefined }, null], 5)
    expect(only).toEqual({ items: [{ id: 'c1', createdAt: at(1) }], nextCursor: null })
    expect(mergePages([null, null], 5)).toEqual({ items: [], nextCursor: null })
    expect(splitCursor('x~m3')).toEqual([null, 'm3'])
  })
})
