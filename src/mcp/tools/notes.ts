import { z } from '@hono/zod-openapi'
import { NotificationPageSchema } from '../../schemas/notifications'
import { PostNoteListSchema, PostNoteSchema } from '../../schemas/notes'
import type { Caller } from '../../services/caller'
import { createNote, listNotes, NOTE_MAX_LENGTH, NOTE_MAX_MENTIONS } from '../../services/notes/notes'
import { listNotifications } from '../../services/notifications/inbox'
import { defineTool, type McpTool, type ToolContext } from '../tool'

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const
const id = z.string().min(1).max(64)

const callerOf = (ctx: ToolContext): Caller => ({
  workspaceId: ctx.workspaceId,
  access: ctx.access,
  actor: ctx.actor,
  userId: ctx.userId,
  ip: null,
})

export const listPostNotesTool = defineTool({
  name: 'list_post_notes',
  title: 'Notes on a post',
  description:
    "The team's internal notes on a post, oldest first: who wrote each, when, and whom it mentions. Notes are never published; read them before approving or editing.",
  input: z.object({ postId: id }),
  output: PostNoteListSchema,
  annotations: READ,
  permission: 'read',
  run: async (ctx, { postId }) => ({ data: await listNotes(ctx.deps, callerOf(ctx), postId) }),
})

export const addPostNoteTool = defineTool({
  name: 'add_post_note',
  title: 'Add a note to a post',
  description:
    "Adds an internal note to a post (never published). `mentions` are user ids from the workspace's members; each mentioned member is notified in the app and by email.",
  input: z.object({
    postId: id,
    body: z.string().min(1).max(NOTE_MAX_LENGTH),
    mentions: z.array(id).max(NOTE_MAX_MENTIONS).optional(),
  }),
  output: PostNoteSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  permission: 'comment',
  run: (ctx, { postId, body, mentions }) => createNote(ctx.deps, callerOf(ctx), postId, { body, mentions }),
})

export const listNotificationsTool = defineTool({
  name: 'list_notifications',
  title: 'Your notifications',
  description:
    'Your notifications in this workspace, newest first: review requested, approved, changes requested, failures, reconnects. `unread: true` for unread only; pass nextCursor as cursor.',
  input: z.object({
    unread: z.boolean().optional(),
    cursor: z.string().min(1).max(64).optional(),
    limit: z.number().int().min(1).max(100).optional(),
  }),
  output: NotificationPageSchema,
  annotations: READ,
  permission: 'read',
  run: (ctx, query) => listNotifications(ctx.deps, callerOf(ctx), query),
})

export const NOTE_TOOLS: McpTool[] = [listPostNotesTool, addPostNoteTool, listNotificationsTool]
