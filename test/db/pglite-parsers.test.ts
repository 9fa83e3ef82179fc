import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { afterAll, describe, expect, it } from 'vitest'
import { openPglite, type PgliteConnection } from '../../src/db/pglite'

// Every type Drizzle reads as text, scalar and array, plus types PGlite parses itself.
const PROBE = sql`select '2026-03-29 01:30:00+00'::timestamptz as tstz, '2026-03-29 01:30:00'::timestamp as ts,
  '2026-03-29'::date as d, '1 day 02:00:00'::interval as i, 12.50::numeric as n,
  array['2026-03-29 01:30:00+00', '2026-10-25 01:30:00+00']::timestamptz[] as tstz_list,
  array['2026-03-29 01:30:00']::timestamp[] as ts_list, array['2026-03-29']::date[] as d_list,
  array['1 day']::interval[] as i_list, array[1.5, 2.25]::numeric[] as n_list,
  42 as int, true as yes, '{"a": [1]}'::jsonb as doc, array[1, 2] as int_list`

const rowsOf = (result: unknown) => (result as { rows: Array<Record<string, unknown>> }).rows

describe('the embedded database as Drizzle reads it', () => {
  const opened: Array<{ close(): Promise<unknown> }> = []
  afterAll(async () => {
    for (const c of opened) await c.close()
  })

  it('answers the same values with the parsers kept on the instance as Drizzle gets passing its own per statement', async () => {
    const ours: PgliteConnection = await openPglite({ dataDir: null })
    opened.push(ours)
    // Drizzle's own driver on a PGlite left as it comes: Drizzle's parsers go with every statement.
    const plain = await PGlite.create()
    opened.push(plain)
    const reference = drizzle({ client: plain })

    const [got] = rowsOf(await ours.db.execute(PROBE))
    const [expected] = rowsOf(await reference.execute(PROBE))
    expect(got).toEqual(expected)
    // What that means: Drizzle maps these itself, so they arrive as PostgreSQL wrote them.
    expect(got).toMatchObject({
      tstz: '2026-03-29 01:30:00+00',
      d: '2026-03-29',
      i: '1 day 02:00:00',
      tstz_list: '{"2026-03-29 01:30:00+00","2026-10-25 01:30:00+00"}',
      n_list: '{1.5,2.25}',
      int: 42,
      yes: true,
      doc: { a: [1] },
      int_list: [1, 2],
    })
  })

  it('maps typed columns the same way inside a transaction', async () => {
    const ours = await openPglite({ dataDir: null })
    opened.push(ours)
    const got = await ours.db.transaction(async (tx) => rowsOf(await tx.execute(PROBE))[0])
    expect(got).toMatchObject({ tstz: '2026-03-29 01:30:00+00', ts_list: '{"2026-03-29 01:30:00"}' })
  })
})
