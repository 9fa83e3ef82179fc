import { z } from '@hono/zod-openapi'
import { ACCOUNT_STATUSES, CONNECTIONS, PLATFORM_IDS } from '../domain/vocabulary'

const dateTime = (description: string) => z.string().nullable().openapi({ format: 'date-time', description })

export const AccountSyncSchema = z
  .object({
    status: z.enum(['ok', 'failing', 'pending']).openapi({
      description:
        '`ok`: the last read of each stream succeeded. `failing`: a stream keeps failing (see `lastError`); the sync retries on its own, backing off. `pending`: not read yet.',
    }),
    lastSuccessAt: dateTime('The latest successful read; null when none succeeded yet.'),
    lastError: z
      .object({
        stream: z.string().openapi({ description: '`posts`, `comments` or `mentions`.', example: 'comments' }),
        code: z.string().openapi({
          description: 'As in publishing: `rate_limited`, `auth_expired`, `rejected`, `transient`, `gone`, `internal`.',
          example: 'auth_expired',
        }),
        message: z.string().openapi({ description: 'What went wrong, in words.' }),
        failures: z.number().int().openapi({ description: 'Failed runs in a row.' }),
      })
      .nullable()
      .openapi({ description: 'The failure of the stream failing longest; null when none fails.' }),
    nextAttemptAt: dateTime(
      'When the sync reads this account next (a backoff included); null when nothing is planned.',
    ),
  })
  .openapi('AccountSync')

export const AccountIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'acc_9TqX2v8LmN3pR5sW7yZa1b' }),
})

export const AccountSchema = z
  .object({
    id: z.string().openapi({ description: 'Use it in `accountIds`.', example: 'acc_9TqX2v8LmN3pR5sW7yZa1b' }),
    platform: z.enum(PLATFORM_IDS),
    username: z.string(),
    status: z.enum(ACCOUNT_STATUSES).openapi({
      description:
        '`ACTIVE`: publishes. `EXPIRED`: the token expired or was revoked, reconnect the account. `DISCONNECTED`: disconnected by the user (kept for history; its credentials are gone).',
    }),
    connection: z.enum(CONNECTIONS),
    statusReason: z
      .string()
      .nullable()
      .openapi({ description: 'Why the account is not ACTIVE and what to do, in words; null when ACTIVE.' }),
    statusMessage: z
      .string()
      .nullable()
      .openapi({ description: 'The same as `statusReason` (its earlier name).', deprecated: true }),
    tokenExpiresAt: dateTime('When the stored access token stops working unless renewed; null when unknown or never.'),
    captionMaxLength: z.number().int().nullable().openapi({
      description:
        "This account's caption budget as the network reported it at connect or at the last token renewal (a paid tier's long posts); validation uses it instead of the platform's `caption.maxLength`. Null: the platform's.",
      example: 25000,
    }),
    connectedAt: z.string().openapi({ format: 'date-time', description: 'When it was last connected or reconnected.' }),
    lastPublishedAt: dateTime('When a post last went out through it; null when none has.'),
    createdAt: z.string().openapi({ format: 'date-time' }),
    sync: AccountSyncSchema.nullable().openapi({
      description:
        'How reading its posts, comments and mentions goes (the inbox sync); null when its network offers nothing to read or it was not read yet.',
    }),
    groupIds: z.array(z.string()).openapi({ description: 'The account groups it is in (`GET /v1/groups`).' }),
  })
  .openapi('Account')

export const ListAccountsQuery = z.object({
  groupId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: 'Only the accounts of this group; an unknown group is 404.' }),
})

export const BoardSchema = z
  .object({
    id: z.string().openapi({ description: 'The value for `pinboardNetBoards[accountId]`.', example: '4127730591' }),
    name: z.string().openapi({ example: 'Recipes' }),
    privacy: z
      .string()
      .openapi({ description: 'As the network reports it: `PUBLIC`, `SECRET` or `PROTECTED`.', example: 'PUBLIC' }),
  })
  .openapi('Board')

export const BoardsSchema = z.object({ boards: z.array(BoardSchema) }).openapi('Boards')

export const DestinationSchema = z
  .object({
    id: z.string().openapi({ description: 'The value for `destinations[accountId]`.', example: '4127730591' }),
    name: z.string().openapi({ description: 'As the network shows it.', example: 'Recipes' }),
    description: z.string().nullable().openapi({ description: "The network's short description; null when none." }),
  })
  .openapi('Destination')

export const DestinationsSchema = z.object({ destinations: z.array(DestinationSchema) }).openapi('Destinations')

export const ConnectLinkSchema = z
  .object({
    url: z.string().openapi({
      format: 'uri',
      description: 'Our hosted connect page, for whoever owns the social account. Single use: it connects one account.',
      example: 'https://api.example.com/connect/9TqX2v8LmN3pR5sW7yZa1b4cD6eF8gH0iJ2kL4mN6oP',
    }),
    expiresAt: z
      .string()
      .openapi({ format: 'date-time', description: 'The link stops working 30 minutes after it was made.' }),
  })
  .openapi('ConnectLink')

const redirectUrl = z.string().max(2048).optional().openapi({
  format: 'uri',
  description:
    'Where the owner is sent back when done: with `accountId` and `platform`, or with `error` and `message`. Its origin must be one this deployment allows (`CONNECT_REDIRECT_ORIGINS`); without it the owner sees our own result page.',
  example: 'https://app.example.com/accounts/connected',
})

export const ConnectRequestSchema = z
  .object({
    platform: z.enum(PLATFORM_IDS).openapi({ example: 'MESSAGING_NET' }),
    connection: z.enum(CONNECTIONS).optional().openapi({
      description:
        "How the account connects; default the network's OAuth login, else its only connection. `SANDBOX` connects an account of the simulated network (a consent page of its own).",
    }),
    redirectUrl,
    groupId: z.string().min(1).max(64).optional().openapi({
      description:
        "The account group (`GET /v1/groups`) the new account joins; a reconnected one keeps its groups. A caller limited to groups names one of theirs, or may leave it out when limited to one; limited to several, leaving it out is 422. A group outside the caller's is 404.",
      example: 'grp_3kqZ7m0pL2aYbN4tR8cVxd',
    }),
  })
  .openapi('ConnectRequest')

export const ReconnectRequestSchema = z.object({ redirectUrl }).openapi('ReconnectRequest')
