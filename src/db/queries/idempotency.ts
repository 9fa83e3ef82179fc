/** Queries of Idempotency-Key records: one row per (workspace, key), `pending` until the first answer is stored. */
import { and, eq, lt, type SQL, sql } from 'drizzle-orm'
import { insertFromArraysStatement } from '../array-rows'
import { idempotencyKeys } from '../schema'
import type { DbOrTx } from '../types'

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect
export type NewIdempotencyKeyRow = typeof idempotencyKeys.$inferInsert

const keyOf = (workspaceId: string, key: string) =>
  and(eq(idempotencyKeys.workspaceId, workspaceId), eq(idempotencyKeys.key, key))

/**
 * Inserts a `pending` record unless the key is taken by a record that has not expired at `now`
 * (an expired one is replaced), in one statement; the keys it wrote (none or one).
 */
export function claimPendingIdempotencyKey(
  db: DbOrTx,
  values: { workspaceId: string; key: string; fingerprint: string; createdAt: Date; expiresAt: Date },
  now: Date,
): Promise<Array<{ key: string }>> {
  return db
    .insert(idempotencyKeys)
    .values({ ...values, state: 'pending' })
    .onConflictDoUpdate({
      target: [idempotencyKeys.workspaceId, idempotencyKeys.key],
      set: {
        fingerprint: values.fingerprint,
        state: 'pending',
        responseStatus: null,
        responseBody: null,
        createdAt: values.createdAt,
        expiresAt: values.expiresAt,
      },
      setWhere: lt(idempotencyKeys.expiresAt, now),
    })
    .returning({ key: idempotencyKeys.key })
}

export async function findIdempotencyKey(
  db: DbOrTx,
  workspaceId: string,
  key: string,
): Promise<IdempotencyKeyRow | null> {
  const [row] = await db.select().from(idempotencyKeys).where(keyOf(workspaceId, key))
  return row ?? null
}

/** Stores the first answer to the key, replayed until `expiresAt`. */
export async function storeIdempotentAnswer(
  db: DbOrTx,
  workspaceId: string,
  key: string,
  answer: { status: number; body: unknown; expiresAt: Date },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ state: 'done', responseStatus: answer.status, responseBody: answer.body, expiresAt: answer.expiresAt })
    .where(keyOf(workspaceId, key))
}

/** Frees a key still `pending` (a stored answer is kept). */
export async function deletePendingIdempotencyKey(db: DbOrTx, workspaceId: string, key: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.workspaceId, workspaceId),
        eq(idempotencyKeys.key, key),
        eq(idempotencyKeys.state, 'pending'),
      ),
    )
}

/**
 * The statement that stores a key's record (its first answer) unless the key is taken by a record
 * that has not expired at `now` (an expired one is replaced); it answers one row when it stored it.
 * Part of the write the answer reports, so both commit together (posts.ts `insertPostWithTargets`).
 */
export function storeAnswerUnlessTakenStatement(record: NewIdempotencyKeyRow, now: Date): SQL {
  const replaced = ['fingerprint', 'state', 'response_status', 'response_body', 'created_at', 'expires_at']
  return sql`${insertFromArraysStatement(idempotencyKeys, [record])}
    on conflict (workspace_id, key) do update set ${sql.join(
      replaced.map((name) => sql`${sql.identifier(name)} = excluded.${sql.identifier(name)}`),
      sql`, `,
    )}
    where ${idempotencyKeys.expiresAt} < ${now.toISOString()}::timestamptz
    returning 1`
}
