import { eq, inArray, type SQL, sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { insertFromArrays, rowAsInserted, updateFromArrays } from '../../src/db/array-rows'
import { plans, posts } from '../../src/db/schema'
import { newId } from '../../src/lib/ids'
import { createWorkspace } from '../../src/services/workspace/workspaces'
import { closeTestDatabase, testDatabase } from '../support/database'

afterAll(closeTestDatabase)

describe('inserting rows from one array per column', () => {
  it('stores and answers the rows exactly as the table reads them back: defaults, JSON, dates, nulls, quotes', async () => {
    const { db } = await testDatabase()
    const ws = await createWorkspace(db, { name: 'arrays', planId: 'free', timezone: 'UTC' })
    const at = new Date('2026-03-29T01:30:00.123Z')
    const rows = [0, 1, 2].map((i) => ({
      id: newId('post'),
      workspaceId: ws.id,
      status: 'SCHEDULED' as const,
      type: 'IMAGE' as const,
      caption: i === 1 ? null : `it's "quoted", {braced} and \\ back ${i}`,
      mediaIds: i === 2 ? [] : ['med_a', `med_"${i}"`],
      scheduledAt: at,
      captionOverrides: null,
    }))
    const answered = await db.transaction((tx) => insertFromArrays(tx, posts, rows))
    const stored = await db
      .select()
      .from(posts)
      .where(
        inArray(
          posts.id,
          rows.map((r) => r.id),
        ),
      )
    const byId = (list: Array<{ id: string }>) => [...list].sort((a, b) => a.id.localeCompare(b.id))
    expect(byId(answered)).toEqual(byId(stored))
    const second = answered.find((r) => r.id === rows[1]!.id)!
    expect(second).toMatchObject({
      caption: null,
      mediaIds: ['med_a', 'med_"1"'],
      scheduledAt: at,
      captionOverrides: null,
    })
    expect(answered.find((r) => r.id === rows[0]!.id)!.caption).toBe(`it's "quoted", {braced} and \\ back 0`)
    // Columns the rows leave unset take their defaults.
    expect(second.createdAt).toBeInstanceOf(Date)
    expect(second.publishedAt).toBeNull()
  })

  it('knows the row the table stores without reading it back: defaults that are values, nulls; a database default must be set', async () => {
    const { db } = await testDatabase()
    const ws = await createWorkspace(db, { name: 'as-inserted', planId: 'free', timezone: 'UTC' })
    const at = new Date('2026-03-29T01:30:00.123Z')
    const values = {
      id: newId('post'),
      workspaceId: ws.id,
      status: 'DRAFT' as const,
      type: 'IMAGE' as const,
      caption: 'known',
      createdAt: at,
      updatedAt: at,
    }
    const known = rowAsInserted(posts, values)
    const [stored] = await insertFromArrays(db, posts, [values])
    expect(known).toEqual(stored)
    expect(known).toMatchObject({ mediaIds: [], queued: false, version: 1, scheduledAt: null })
    const { createdAt: _createdAt, ...withoutTime } = values
    expect(() => rowAsInserted(posts, withoutTime)).toThrow(/created_at/)
  })

  it("falls back to Drizzle's own insert when the rows set different columns, defaults applied per row", async () => {
    const { db } = await testDatabase()
    const a = `plan_${newId('post')}`
    const b = `plan_${newId('post')}`
    const answered = await insertFromArrays(db, plans, [
      { id: a, name: 'A', socialAccounts: 1, seats: 1, monthlyPosts: 1, webhookEndpoints: 3 },
      { id: b, name: 'B', socialAccounts: 2, seats: 2, monthlyPosts: 2 },
    ])
    // The rows come back in no promised order: compared by id.
    expect(new Map(answered.map((p) => [p.id, p.webhookEndpoints]))).toEqual(
      new Map([
        [a, 3],
        [b, 10],
      ]),
    )
    await db.delete(plans).where(inArray(plans.id, [a, b]))
    expect(await db.select().from(plans).where(eq(plans.id, a))).toEqual([])
  })
})

describe('updating rows from one array per column', () => {
  it('gives each row its own values (text, JSON, dates, nulls) where its guard holds, and answers those rows', async () => {
    const { db } = await testDatabase()
    const ws = await createWorkspace(db, { name: 'array updates', planId: 'free', timezone: 'UTC' })
    const at = new Date('2026-05-01T08:00:00.456Z')
    const ids = [0, 1, 2].map(() => newId('post'))
    await insertFromArrays(
      db,
      posts,
      ids.map((id, i) => ({
        id,
        workspaceId: ws.id,
        status: 'DRAFT' as const,
        type: 'IMAGE' as const,
        caption: `before ${i}`,
        mediaIds: [],
        scheduledAt: i === 2 ? at : null,
      })),
    )
    const later = new Date('2026-05-02T09:30:00.789Z')
    const answered = await updateFromArrays(
      db,
      posts,
      posts.id,
      [
        {
          key: ids[0]!,
          set: { caption: `it's "new", {braced} \\ 0`, mediaIds: ['med_"x"'] },
          match: { scheduledAt: null },
        },
        { key: ids[1]!, set: { caption: null, mediaIds: [] }, match: { scheduledAt: null } },
        // Its guard does not hold (scheduled at `at`, not at `later`): left as it is.
        { key: ids[2]!, set: { caption: 'never', mediaIds: [] }, match: { scheduledAt: later } },
      ],
      (matched) => `posts.scheduled_at is not distinct from ${matched('scheduledAt')}`,
    )
    expect(answered.map((r) => r.id).sort()).toEqual([ids[0], ids[1]].sort())
    const stored = new Map((await db.select().from(posts).where(inArray(posts.id, ids))).map((r) => [r.id, r]))
    expect(stored.get(ids[0]!)).toMatchObject({ caption: `it's "new", {braced} \\ 0`, mediaIds: ['med_"x"'] })
    expect(stored.get(ids[1]!)).toMatchObject({ caption: null, mediaIds: [] })
    expect(stored.get(ids[2]!)).toMatchObject({ caption: 'before 2', scheduledAt: at })
    for (const row of answered) expect(row).toEqual(stored.get(row.id))
  })

  it('finds each row it updates by its key, never by reading the whole table', async () => {
    const { db } = await testDatabase()
    const ws = await createWorkspace(db, { name: 'array plan', planId: 'free', timezone: 'UTC' })
    await db.execute(sql`insert into posts (id, workspace_id, status, type, caption, media_ids)
      select 'post_plan_' || ${ws.id} || '_' || g, ${ws.id}, 'DRAFT', 'IMAGE', 'seeded', '[]'::jsonb
      from generate_series(1, 3000) g`)
    await db.execute(sql`analyze posts`)
    let statement: SQL | undefined
    const capture = {
      execute: async (query: SQL) => {
        statement = query
        return { rows: [] }
      },
    } as unknown as Parameters<typeof updateFromArrays>[0]
    const keys = Array.from({ length: 10 }, (_, i) => `post_plan_${ws.id}_${i + 1}`)
    await updateFromArrays(
      capture,
      posts,
      posts.id,
      keys.map((key) => ({ key, set: { caption: 'new' }, match: { scheduledAt: null } })),
      (matched) => `posts.scheduled_at is not distinct from ${matched('scheduledAt')}`,
    )
    const plan = (await db.execute(sql`explain ${statement!}`)) as unknown as { rows: Array<Record<string, string>> }
    const text = plan.rows.map((row) => Object.values(row).join(' ')).join('\n')
    expect(text).toMatch(/Index Scan using posts_pkey/)
    expect(text).not.toMatch(/Seq Scan on posts/)
  })

  it('refuses updates that set different columns or repeat a key, writing nothing', async () => {
    const { db } = await testDatabase()
    const ws = await createWorkspace(db, { name: 'array refusals', planId: 'free', timezone: 'UTC' })
    const id = newId('post')
    await insertFromArrays(db, posts, [
      { id, workspaceId: ws.id, status: 'DRAFT', type: 'IMAGE', caption: 'kept', mediaIds: [] },
    ])
    await expect(
      updateFromArrays(db, posts, posts.id, [
        { key: id, set: { caption: 'a' } },
        { key: newId('post'), set: { caption: 'b', mediaIds: [] } },
      ]),
    ).rejects.toThrow(/same columns/)
    await expect(
      updateFromArrays(db, posts, posts.id, [
        { key: id, set: { caption: 'a' } },
        { key: id, set: { caption: 'b' } },
      ]),
    ).rejects.toThrow(/repeated key/)
    const [row] = await db.select().from(posts).where(eq(posts.id, id))
    expect(row!.caption).toBe('kept')
  })
})
