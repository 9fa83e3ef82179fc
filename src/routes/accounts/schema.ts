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
