/**
 * Queries of notifications: who receives one (members by id or role, limited to those who can see
 * a post), their channel choices, the rows written, and the reads of the notifications API.
 */
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm'
import type { NotificationKind } from '../../domain/notifications'
import type { MemberRole } from '../../domain/people'
import { emailOutbox, memberships, notificationPreferences, notifications, users } from '../schema'
import { resultRows } from '../table-rows'
import type { DbOrTx } from '../types'

export type NotificationRow = typeof notifications.$inferSelect

export interface RecipientQuery {
  workspaceId: string
  userIds: readonly string[]
  roles: readonly MemberRole[]
  /** Only members who can see this post: whole-workspace access, or a group holding one of its accounts. */
  scopePostId: string | null
}

export interface Recipient {
  userId: string
  email: string
  name: string
}

/** Current members of the workspace named by id or holding one of the roles, with their addresses. */
export async function selectRecipients(db: DbOrTx, q: RecipientQuery): Promise<Recipient[]> {
  if (q.userIds.length === 0 && q.roles.length === 0) return []
  const named = q.userIds.length > 0 ? inArray(memberships.userId, [...q.userIds]) : undefined
  const byRole = q.roles.length > 0 ? inArray(memberships.role, [...q.roles]) : undefined
  const scope = q.scopePostId
    ? sql`(${memberships.role} in ('owner', 'admin')
        or not exists (select 1 from membership_groups mg
          where mg.workspace_id = ${memberships.workspaceId} and mg.user_id = ${memberships.userId})
        or exists (select 1 from membership_groups mg
          join account_group_members agm on agm.group_id = mg.group_id
          join targets t on t.account_id = agm.account_id
          where mg.workspace_id = ${memberships.workspaceId} and mg.user_id = ${memberships.userId}
            and t.post_id = ${q.scopePostId}))`
    : undefined
  return db
    .select({ userId: users.id, email: users.email, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, q.workspaceId), or(named, byRole), scope))
}

/** The users' stored choices for one kind in the workspace (a user with none has the defaults). */
export function selectKindPreferences(db: DbOrTx, workspaceId: string, userIds: string[], kind: NotificationKind) {
  return db
    .select({
      userId: notificationPreferences.userId,
      inApp: notificationPreferences.inApp,
      email: notificationPreferences.email,
    })
    .from(notificationPreferences)
    .where(
      and(
        eq(notificationPreferences.workspaceId, workspaceId),
        eq(notificationPreferences.kind, kind),
        inArray(notificationPreferences.userId, userIds),
      ),
    )
}

/** Every stored choice of the user in the workspace. */
export function selectUserPreferences(db: DbOrTx, workspaceId: string, userId: string) {
  return db
    .select({
      kind: notificationPreferences.kind,
      inApp: notificationPreferences.inApp,
      email: notificationPreferences.email,
    })
    .from(notificationPreferences)
    .where(and(eq(notificationPreferences.workspaceId, workspaceId), eq(notificationPreferences.userId, userId)))
}

export async function upsertPreferences(
  db: DbOrTx,
  rows: Array<{ userId: string; workspaceId: string; kind: string; inApp: boolean; email: boolean }>,
): Promise<void> {
  if (rows.length === 0) return
  await db
    .insert(notificationPreferences)
    .values(rows)
    .onConflictDoUpdate({
      target: [notificationPreferences.userId, notificationPreferences.workspaceId, notificationPreferences.kind],
      set: { inApp: sql`excluded.in_app`, email: sql`excluded.email` },
    })
}

/** Inserts the rows; one whose user already has its dedupe key is skipped. Answers those written. */
export function insertNotifications(db: DbOrTx, rows: Array<typeof notifications.$inferInsert>) {
  if (rows.length === 0) return Promise.resolve([] as Array<{ id: string; userId: string }>)
  return db
    .insert(notifications)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: notifications.id, userId: notifications.userId })
}

/** Whether the user already had a notification with this key (the email of a deduplicated one is not sent twice). */
export async function selectDedupedUsers(db: DbOrTx, userIds: string[], dedupeKey: string): Promise<Set<string>> {
  if (userIds.length === 0) return new Set()
  const rows = await db
    .select({ userId: notifications.userId })
    .from(notifications)
    .where(and(inArray(notifications.userId, userIds), eq(notifications.dedupeKey, dedupeKey)))
  return new Set(rows.map((r) => r.userId))
}

export async function insertEmails(db: DbOrTx, rows: Array<typeof emailOutbox.$inferInsert>): Promise<void> {
  if (rows.length > 0) await db.insert(emailOutbox).values(rows)
}

export interface NotificationPage {
  userId: string
  workspaceId: string
  unreadOnly: boolean
  /** The id of the last row of the previous page. */
  after: string | null
  limit: number
}

/** The user's notifications in the workspace, newest first, one more than `limit` (to know a next page). */
export function selectNotifications(db: DbOrTx, p: NotificationPage) {
  const mine = and(eq(notifications.userId, p.userId), eq(notifications.workspaceId, p.workspaceId))
  const after = p.after
    ? sql`(${notifications.createdAt}, ${notifications.id}) < (select n.created_at, n.id from notifications n
        where n.id = ${p.after} and n.user_id = ${p.userId})`
    : undefined
  return db
    .select()
    .from(notifications)
    .where(and(mine, p.unreadOnly ? isNull(notifications.readAt) : undefined, after))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(p.limit + 1)
}

export async function countUnread(db: DbOrTx, userId: string, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(
      and(eq(notifications.userId, userId), eq(notifications.workspaceId, workspaceId), isNull(notifications.readAt)),
    )
  return Number(row?.n ?? 0)
}

/** Marks one of the user's notifications read (kept as first read); null when it is not theirs. */
export async function markNotificationRead(
  db: DbOrTx,
  q: { userId: string; workspaceId: string; id: string; now: Date },
): Promise<NotificationRow | null> {
  const mine = and(
    eq(notifications.id, q.id),
    eq(notifications.userId, q.userId),
    eq(notifications.workspaceId, q.workspaceId),
  )
  const [row] = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${q.now.toISOString()}::timestamptz)` })
    .where(mine)
    .returning()
  return row ?? null
}

export async function markAllNotificationsRead(
  db: DbOrTx,
  q: { userId: string; workspaceId: string; now: Date },
): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: q.now })
    .where(
      and(eq(notifications.userId, q.userId), eq(notifications.workspaceId, q.workspaceId), isNull(notifications.readAt)),
    )
    .returning({ id: notifications.id })
  return rows.length
}

export type EmailRow = typeof emailOutbox.$inferSelect

/**
 * Takes up to `limit` due PENDING emails for one attempt each: their next attempt moves to
 * `leaseUntil`, so no other sender takes them meanwhile (rows another transaction holds are skipped).
 */
export async function claimDueEmails(
  db: DbOrTx,
  claim: { now: Date; leaseUntil: Date; limit: number; workspaceId?: string | undefined },
): Promise<EmailRow[]> {
  const now = claim.now.toISOString()
  const workspace = claim.workspaceId ? sql`and workspace_id = ${claim.workspaceId}` : sql``
  const result = await db.execute(
    sql`with due as materialized (select id from email_outbox
          where status = 'PENDING' and next_attempt_at <= ${now}::timestamptz ${workspace}
          order by next_attempt_at limit ${claim.limit} for update skip locked)
      update email_outbox set next_attempt_at = ${claim.leaseUntil.toISOString()}::timestamptz
      from due where email_outbox.id = due.id and email_outbox.status = 'PENDING'
      returning email_outbox.id`,
  )
  const ids = resultRows(result).map((r) => String(r.id))
  if (ids.length === 0) return []
  return db.select().from(emailOutbox).where(inArray(emailOutbox.id, ids))
}

/** The outcome of one attempt: SENT, PENDING again at `nextAttemptAt`, or FAILED for good. */
export async function recordEmailAttempt(
  db: DbOrTx,
  outcome: { id: string; status: 'SENT' | 'PENDING' | 'FAILED'; attempts: number; nextAttemptAt: Date; lastError: string | null; now: Date },
): Promise<void> {
  await db
    .update(emailOutbox)
    .set({
      status: outcome.status,
      attempts: outcome.attempts,
      nextAttemptAt: outcome.nextAttemptAt,
      lastError: outcome.lastError,
      sentAt: outcome.status === 'SENT' ? outcome.now : null,
    })
    .where(eq(emailOutbox.id, outcome.id))
}

/** The workspace's emails (tests and the operator's view), newest first. */
export function selectWorkspaceEmails(db: DbOrTx, workspaceId: string) {
  return db.select().from(emailOutbox).where(eq(emailOutbox.workspaceId, workspaceId)).orderBy(desc(emailOutbox.createdAt))
}
