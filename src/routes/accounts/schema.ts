import { z } from '@hono/zod-openapi'
import { ACCOUNT_STATUSES, CONNECTIONS, PLATFORM_IDS } from '../../domain/vocabulary'

export const AccountSchema = z
  .object({
    id: z.string().openapi({ description: 'Use it in `accountIds`.', example: 'acc_9TqX2v8LmN3pR5sW7yZa1b' }),
    platform: z.enum(PLATFORM_IDS),
    username: z.string(),
    status: z.enum(ACCOUNT_STATUSES).openapi({
      description:
        '`EXPIRED`: the token expired or was revoked, reconnect the account. `DISCONNECTED`: removed by the user.',
    }),
    connection: z.enum(CONNECTIONS),
    statusMessage: z
      .string()
      .nullable()
      .openapi({ description: 'Why the account is not ACTIVE and what to do; null when ACTIVE.' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Account')

export const AccountIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({
      param: { name: 'id', in: 'path' },
      description: 'A PINBOARD_NET account id.',
      example: 'acc_9TqX2v8LmN3pR5sW7yZa1b',
    }),
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
