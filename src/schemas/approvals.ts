import { z } from '@hono/zod-openapi'
import { ACTOR_KINDS } from '../domain/access'
import { APPROVAL_ACTIONS, APPROVAL_STATES } from '../domain/approval'
import { IsoInstantSchema } from '../domain/post-content'

export const ActorSchema = z
  .object({
    kind: z.enum(ACTOR_KINDS),
    id: z.string().nullable(),
    name: z.string(),
  })
  .openapi('Actor', { description: 'Who did something: a user, an API token, an agent, a review link or the service.' })

export const ApprovalSchema = z
  .object({
    state: z.enum(APPROVAL_STATES),
    submittedBy: ActorSchema,
    submittedAt: z.string().openapi({ format: 'date-time' }),
    intent: z
      .object({ action: z.enum(APPROVAL_ACTIONS), scheduledAt: z.string().nullable().openapi({ format: 'date-time' }) })
      .nullable()
      .openapi({ description: 'What approval does: schedule, queue or publish now; null: the post becomes APPROVED.' }),
    note: z.string().nullable().openapi({ description: "The submitter's note to the reviewer." }),
    decidedBy: ActorSchema.nullable(),
    decidedAt: z.string().nullable().openapi({ format: 'date-time' }),
    comment: z.string().nullable().openapi({ description: "The reviewer's comment (required when changes are requested)." }),
    version: z.number().int().openapi({ description: 'The post version that was submitted.' }),
  })
  .openapi('Approval', {
    description: 'The last approval round of the post; it stays readable after an edit sends the post back to DRAFT.',
  })

export const SubmitPostSchema = z
  .object({
    action: z.enum(APPROVAL_ACTIONS).optional().openapi({
      description:
        'What approval should do: `schedule` (with a future `scheduledAt`), `queue` (the next free slot at approval) or `now`. Without it the post becomes APPROVED and is scheduled or published afterwards.',
    }),
    scheduledAt: IsoInstantSchema.optional().meta({ example: '2026-12-01T09:30:00Z' }),
    note: z.string().max(2000).optional().openapi({ description: 'A note to the reviewers.' }),
  })
  .openapi('SubmitPost')

export const ApprovePostSchema = z
  .object({
    version: z.number().int().min(1).optional().openapi({
      description: 'The post version you reviewed; if the post changed since, 409 `post_changed` says what changed.',
    }),
    comment: z.string().max(2000).optional(),
  })
  .openapi('ApprovePost')

export const RequestPostChangesSchema = z
  .object({
    comment: z.string().min(1).max(2000).openapi({ description: 'What should change (shown to the submitter).' }),
    version: z.number().int().min(1).optional().openapi({
      description: 'The post version you reviewed; if the post changed since, 409 `post_changed` says what changed.',
    }),
  })
  .openapi('RequestPostChanges')

export const WorkspaceSettingsSchema = z
  .object({
    id: z.string().openapi({ example: 'ws_3kqZ7m0pL2aYbN4tR8cVxd' }),
    name: z.string(),
    timezone: z.string().openapi({ description: 'IANA time zone of the workspace.', example: 'Europe/Berlin' }),
    approvalRequired: z.boolean().openapi({
      description: 'Every post must be approved before it is scheduled, queued or published.',
    }),
    plan: z.string().openapi({ example: 'pro' }),
  })
  .openapi('WorkspaceSettings')

export const UpdateWorkspaceSchema = z
  .object({
    name: z.string().min(1).max(100).optional(),
    timezone: z.string().min(1).max(64).optional().openapi({ description: 'An IANA name such as Europe/Berlin.' }),
    approvalRequired: z.boolean().optional(),
  })
  .openapi('UpdateWorkspace')
