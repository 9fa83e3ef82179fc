/**
 * `notify`: tells workspace members about something, in the transaction of the change it reports.
 * Writes one notification per recipient who wants it in the app, and one email_outbox row per
 * recipient who wants it by email (sent later by the sender pass, services/notifications/email-sender.ts).
 */
import {
  insertEmails,
  insertNotifications,
  selectDedupedUsers,
  selectKindPreferences,
  selectRecipients,
} from '../../db/queries/notifications'
import type { DbOrTx } from '../../db/types'
import { composeEmail } from '../../domain/notification-email'
import { DEFAULT_CHANNELS, type NotificationChannels, type NotificationKind } from '../../domain/notifications'
import type { MemberRole } from '../../domain/people'
import { newId } from '../../lib/ids'

export interface NotifyInput {
  workspaceId: string
  kind: NotificationKind
  /** Members named by id, members holding a role, or both; only current members are told. */
  recipients: { userIds?: string[]; roles?: MemberRole[]; groupScopeOfPostId?: string }
  title: string
  body: string
  /** A dashboard path (`/app/w/...`), or null. */
  link: string | null
  subject: { type: string; id: string | null }
  /** Once per user and key: a second notify with the same key tells no one again. */
  dedupeKey?: string
  /** Who caused it (not told about their own action). */
  exceptUserId?: string | null
  now: Date
}

export interface NotifyResult {
  /** Users who got an in-app notification. */
  notified: string[]
  /** Users for whom an email was queued. */
  emailed: string[]
}

export async function notify(tx: DbOrTx, input: NotifyInput): Promise<NotifyResult> {
  const found = await selectRecipients(tx, {
    workspaceId: input.workspaceId,
    userIds: input.recipients.userIds ?? [],
    roles: input.recipients.roles ?? [],
    scopePostId: input.recipients.groupScopeOfPostId ?? null,
  })
  let recipients = found.filter((r) => r.userId !== input.exceptUserId)
  if (input.dedupeKey && recipients.length > 0) {
    const done = await selectDedupedUsers(tx, recipients.map((r) => r.userId), input.dedupeKey)
    recipients = recipients.filter((r) => !done.has(r.userId))
  }
  if (recipients.length === 0) return { notified: [], emailed: [] }
  const channels = await channelsOf(tx, input, recipients.map((r) => r.userId))
  const inserted = await insertNotifications(
    tx,
    recipients
      .filter((r) => channels.get(r.userId)!.inApp)
      .map((r) => ({
        id: newId('notification'),
        workspaceId: input.workspaceId,
        userId: r.userId,
        kind: input.kind,
        title: input.title,
        body: input.body,
        subjectType: input.subject.type,
        subjectId: input.subject.id,
        link: input.link,
        dedupeKey: input.dedupeKey ?? null,
        createdAt: input.now,
      })),
  )
  const notificationOf = new Map(inserted.map((n) => [n.userId, n.id]))
  const email = composeEmail({ title: input.title, body: input.body, link: input.link, workspaceId: input.workspaceId })
  const emailTo = recipients.filter((r) => {
    const c = channels.get(r.userId)!
    // A deduplicated notification another transaction wrote meanwhile is not emailed twice.
    return c.email && (notificationOf.has(r.userId) || !c.inApp)
  })
  await insertEmails(
    tx,
    emailTo.map((r) => ({
      id: newId('email'),
      workspaceId: input.workspaceId,
      notificationId: notificationOf.get(r.userId) ?? null,
      toAddress: r.email,
      subject: email.subject,
      textBody: email.text,
      status: 'PENDING' as const,
      attempts: 0,
      nextAttemptAt: input.now,
      createdAt: input.now,
    })),
  )
  return { notified: [...notificationOf.keys()], emailed: emailTo.map((r) => r.userId) }
}

async function channelsOf(tx: DbOrTx, input: NotifyInput, userIds: string[]): Promise<Map<string, NotificationChannels>> {
  const stored = await selectKindPreferences(tx, input.workspaceId, userIds, input.kind)
  const byUser = new Map(stored.map((p) => [p.userId, { inApp: p.inApp, email: p.email }]))
  return new Map(userIds.map((id) => [id, byUser.get(id) ?? DEFAULT_CHANNELS]))
}
