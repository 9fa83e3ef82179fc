import { z } from '@hono/zod-openapi'

const limit = (what: string) =>
  z
    .number()
    .int()
    .openapi({ description: `${what}; -1 means unlimited.` })

export const WorkspaceSchema = z
  .object({
    workspaceId: z.string().openapi({ example: 'ws_3kqZ7m0pL2aYbN4tR8cVxd' }),
    name: z.string(),
    timezone: z
      .string()
      .openapi({ description: 'IANA zone of queue slots and best-time reports.', example: 'Europe/Berlin' }),
    approvalRequired: z.boolean().openapi({
      description: 'Every post must be approved before it is scheduled, queued or published (PATCH /v1/workspace).',
    }),
    plan: z.object({
      id: z.string().openapi({ example: 'pro' }),
      name: z.string().openapi({ example: 'Pro' }),
      limits: z.object({
        socialAccounts: limit('Connected accounts the plan allows'),
        seats: limit('Seats the plan allows'),
        monthlyPosts: limit('Posts the plan allows per calendar month in the workspace time zone'),
      }),
    }),
    usage: z.object({
      socialAccounts: z
        .number()
        .int()
        .openapi({ description: 'Connected accounts that count against the plan (every one not DISCONNECTED).' }),
      postsThisMonth: z
        .number()
        .int()
        .openapi({ description: 'Posts created since the first of this month, 00:00 in the workspace time zone.' }),
      seats: z.number().int().openapi({
        description: 'Members of the workspace (people who sign in to the dashboard) that count against the plan.',
      }),
    }),
    stats: z.object({
      accounts: z.number().int().openapi({ description: 'All accounts of the workspace, whatever their status.' }),
      scheduled: z.number().int().openapi({ description: 'Posts in status SCHEDULED.' }),
    }),
  })
  .openapi('Workspace')
