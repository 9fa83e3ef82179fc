/** The notifications API (`/v1/notifications`, `/v1/notification-preferences`). */
import { z } from '@hono/zod-openapi'
import { NOTIFICATION_KINDS } from '../domain/notifications'
import { NOTIFICATION_PAGE_DEFAULT, NOTIFICATION_PAGE_MAX } from '../services/notifications/inbox'

export const NotificationSchema = z
  .object({
    id: z.string().openapi({ example: 'ntf_3kqZ7m0pL2aYbN4tR8cVxd' }),
    kind: z.enum(NOTIFICATION_KINDS),
    title: z.string(),
    body: z.string(),
    subject: z
      .object({ type: z.string(), id: z.string().nullable() })
      .openapi({ description: 'What it is about (a post, an account).' }),
    link: z.string().nullable().openapi({ description: 'The dashboard page about it (a path under /app).' }),
    read: z.boolean(),
    readAt: z.string().nullable().openapi({ format: 'date-time' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Notification')

export const ListNotificationsQuery = z.object({
  unread: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ param: { name: 'unread', in: 'query' }, description: '`true`: only unread notifications.' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(NOTIFICATION_PAGE_MAX)
    .optional()
    .openapi({
      param: { name: 'limit', in: 'query' },
      description: `Page size, default ${NOTIFICATION_PAGE_DEFAULT}, at most ${NOTIFICATION_PAGE_MAX}.`,
    }),
  cursor: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({
      param: { name: 'cursor', in: 'query' },
      description: 'The `nextCursor` of the previous page, as given.',
    }),
})

export const NotificationPageSchema = z
  .object({
    data: z.array(NotificationSchema),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass it as `cursor` for the next page; null on the last page.' }),
  })
  .openapi('NotificationPage')

export const NotificationIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'ntf_3kqZ7m0pL2aYbN4tR8cVxd' }),
})

export const UnreadNotificationsSchema = z.object({ unread: z.number().int() }).openapi('UnreadNotifications')
export const ReadAllNotificationsSchema = z.object({ updated: z.number().int() }).openapi('ReadAllNotifications')

const Channels = {
  inApp: z.boolean().openapi({ description: 'Shown in the dashboard and the API.' }),
  email: z.boolean().openapi({ description: 'Sent by email (when the service has SMTP_URL).' }),
}

export const NotificationPreferencesSchema = z
  .object({
    preferences: z.array(z.object({ kind: z.enum(NOTIFICATION_KINDS), description: z.string(), ...Channels })),
  })
  .openapi('NotificationPreferences')

export const UpdateNotificationPreferencesSchema = z
  .object({
    preferences: z
      .array(
        z.object({
          kind: z.enum(NOTIFICATION_KINDS),
          inApp: Channels.inApp.optional(),
          email: Channels.email.optional(),
        }),
      )
      .min(1)
      .max(NOTIFICATION_KINDS.length),
  })
  .openapi('UpdateNotificationPreferences')
