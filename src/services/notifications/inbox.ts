/**
 * A user's notifications in a workspace: the list (newest first, cursor pages, unread only), the
 * unread count, marking read, and the channel choices per kind. They belong to a person: a caller
 * with no user (a token made by no one) is refused with 403.
 */
import {
  countUnread,
  markAllNotificationsRead,
  markNotificationRead,
  type NotificationRow,
  selectNotifications,
  selectUserPreferences,
  upsertPreferences,
} from '../../db/queries/notifications'
import type { Deps } from '../../deps'
import { AppError } from '../../domain/errors'
import {
  DEFAULT_CHANNELS,
  isNotificationKind,
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_KINDS,
  type NotificationKind,
} from '../../domain/notifications'
import type { Caller } from '../caller'

export const NOTIFICATION_PAGE_DEFAULT = 20
export const NOTIFICATION_PAGE_MAX = 100

export interface Notification {
  id: string
  kind: NotificationKind
  title: string
  body: string
  subject: { type: string; id: string | null }
  link: string | null
  read: boolean
  readAt: string | null
  createdAt: string
}

export interface NotificationPreference {
  kind: NotificationKind
  description: string
  inApp: boolean
  email: boolean
}

/** The caller's user id; a caller with none cannot have notifications. */
export function notificationUser(caller: Caller): string {
  if (caller.userId) return caller.userId
  throw new AppError(
    'forbidden',
    'Notifications belong to a person, and this token was created by no user. Use a token a member created, or the dashboard.',
  )
}

const toNotification = (row: NotificationRow): Notification => ({
  id: row.id,
  kind: row.kind as NotificationKind,
  title: row.title,
  body: row.body,
  subject: { type: row.subjectType, id: row.subjectId },
  link: row.link,
  read: row.readAt !== null,
  readAt: row.readAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
})

export async function listNotifications(
  deps: Pick<Deps, 'db'>,
  caller: Caller,
  query: { unread?: boolean | undefined; cursor?: string | undefined; limit?: number | undefined },
): Promise<{ data: Notification[]; nextCursor: string | null }> {
  const userId = notificationUser(caller)
  const limit = Math.min(query.limit ?? NOTIFICATION_PAGE_DEFAULT, NOTIFICATION_PAGE_MAX)
  const rows = await selectNotifications(deps.db, {
    userId,
    workspaceId: caller.workspaceId,
    unreadOnly: query.unread === true,
    after: query.cursor ?? null,
    limit,
  })
  const page = rows.slice(0, limit)
  return { data: page.map(toNotification), nextCursor: rows.length > limit ? page.at(-1)!.id : null }
}

export async function unreadNotificationCount(deps: Pick<Deps, 'db'>, caller: Caller): Promise<{ unread: number }> {
  return { unread: await countUnread(deps.db, notificationUser(caller), caller.workspaceId) }
}

/** The unread count of a user known to be a member (the dashboard's bell). */
export function countUnreadNotificationsOf(
  deps: Pick<Deps, 'db'>,
  userId: string,
  workspaceId: string,
): Promise<number> {
  return countUnread(deps.db, userId, workspaceId)
}

export async function readNotification(
  deps: Pick<Deps, 'db' | 'clock'>,
  caller: Caller,
  id: string,
): Promise<Notification> {
  const row = await markNotificationRead(deps.db, {
    userId: notificationUser(caller),
    workspaceId: caller.workspaceId,
    id,
    now: deps.clock.now(),
  })
  if (!row) throw new AppError('not_found', 'Notification not found.')
  return toNotification(row)
}

export async function readAllNotifications(
  deps: Pick<Deps, 'db' | 'clock'>,
  caller: Caller,
): Promise<{ updated: number }> {
  const updated = await markAllNotificationsRead(deps.db, {
    userId: notificationUser(caller),
    workspaceId: caller.workspaceId,
    now: deps.clock.now(),
  })
  return { updated }
}

export async function getNotificationPreferences(
  deps: Pick<Deps, 'db'>,
  caller: Caller,
): Promise<{ preferences: NotificationPreference[] }> {
  const stored = await selectUserPreferences(deps.db, caller.workspaceId, notificationUser(caller))
  const byKind = new Map(stored.map((p) => [p.kind, p]))
  return {
    preferences: NOTIFICATION_KINDS.map((kind) => {
      const p = byKind.get(kind) ?? DEFAULT_CHANNELS
      return { kind, description: NOTIFICATION_KIND_LABELS[kind], inApp: p.inApp, email: p.email }
    }),
  }
}

/** Changes the channels of the kinds given (a channel left out keeps its value); answers them all. */
export async function updateNotificationPreferences(
  deps: Pick<Deps, 'db'>,
  caller: Caller,
  changes: Array<{ kind: string; inApp?: boolean | undefined; email?: boolean | undefined }>,
): Promise<{ preferences: NotificationPreference[] }> {
  const userId = notificationUser(caller)
  const unknown = changes.filter((c) => !isNotificationKind(c.kind))
  if (unknown.length > 0) {
    throw new AppError('invalid_request', `Unknown notification kind: ${unknown.map((c) => c.kind).join(', ')}.`, {
      details: unknown.map((c) => ({
        path: 'preferences.kind',
        message: `${c.kind} is not one of ${NOTIFICATION_KINDS.join(', ')}.`,
      })),
    })
  }
  const current = new Map((await getNotificationPreferences(deps, caller)).preferences.map((p) => [p.kind, p]))
  await upsertPreferences(
    deps.db,
    changes.map((c) => {
      const was = current.get(c.kind as NotificationKind)!
      return {
        userId,
        workspaceId: caller.workspaceId,
        kind: c.kind,
        inApp: c.inApp ?? was.inApp,
        email: c.email ?? was.email,
      }
    }),
  )
  return getNotificationPreferences(deps, caller)
}
