/** Notes on posts and the workspace's members (`/v1/posts/{id}/notes`, `/v1/members`). */
import { z } from '@hono/zod-openapi'
import { ACTOR_KINDS } from '../domain/access'
import { MEMBER_ROLES } from '../domain/people'
import { NOTE_MAX_LENGTH, NOTE_MAX_MENTIONS } from '../services/notes/notes'

const Actor = z.object({
  kind: z.enum(ACTOR_KINDS),
  id: z.string().nullable(),
  name: z.string().openapi({ description: 'Who it was, in words (a person, a token, an agent, a review link).' }),
})

export const PostNoteSchema = z
  .object({
    id: z.string().openapi({ example: 'note_3kqZ7m0pL2aYbN4tR8cVxd' }),
    postId: z.string(),
    author: Actor,
    body: z.string(),
    mentions: z.array(z.string()).openapi({ description: 'User ids of the members mentioned.' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('PostNote')

export const PostNoteListSchema = z.object({ data: z.array(PostNoteSchema) }).openapi('PostNoteList')

export const CreatePostNoteSchema = z
  .object({
    body: z.string().min(1).max(NOTE_MAX_LENGTH).openapi({ description: 'The note, plain text. Never published.' }),
    mentions: z
      .array(z.string().min(1).max(64))
      .max(NOTE_MAX_MENTIONS)
      .optional()
      .openapi({ description: 'User ids of members to notify (`GET /v1/members`).' }),
  })
  .openapi('CreatePostNote')

export const NoteIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'post_3kqZ7m0pL2aYbN4tR8cVxd' }),
  noteId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'noteId', in: 'path' }, example: 'note_3kqZ7m0pL2aYbN4tR8cVxd' }),
})

export const DeletedNoteSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('DeletedPostNote')

export const MemberSchema = z
  .object({
    userId: z.string().openapi({ example: 'usr_3kqZ7m0pL2aYbN4tR8cVxd' }),
    name: z.string(),
    email: z.string(),
    role: z.enum(MEMBER_ROLES),
    groupIds: z
      .array(z.string())
      .nullable()
      .openapi({ description: 'The account groups the member is limited to; null: the whole workspace.' }),
  })
  .openapi('Member')

export const MemberListSchema = z.object({ data: z.array(MemberSchema) }).openapi('MemberList')
