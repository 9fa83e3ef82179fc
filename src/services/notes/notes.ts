/**
 * Notes on posts: the team's discussion of a post, never published. Anyone who can see the post may
 * read them; `comment` may write; the author or a manager may delete. A mention (a member's user id)
 * notifies that member in the note's transaction.
 */
import {
  findPostNote,
  insertPostNote,
  markPostNoteDeleted,
  type PostNoteRow,
  postVisibleTo,
  selectMembersByIds,
  selectMembersWithGroups,
  selectPostNotes,
} from '../../db/queries/post-notes'
import type { Deps } from '../../deps'
import type { ActorRef } from '../../domain/access'
import { AppError } from '../../domain/errors'
import { canManage, type MemberRole } from '../../domain/people'
import { newId } from '../../lib/ids'
import type { Caller } from '../caller'
import { notify } from '../notifications/notify'

export const NOTE_MAX_LENGTH = 5000
export const NOTE_MAX_MENTIONS = 20

export interface PostNote {
  id: string
  postId: string
  author: ActorRef
  body: string
  /** User ids of the members mentioned. */
  mentions: string[]
  createdAt: string
}

export interface Member {
  userId: string
  name: string
  email: string
  role: MemberRole
  groupIds: string[] | null
}

const toNote = (row: PostNoteRow): PostNote => ({
  id: row.id,
  postId: row.postId,
  author: row.author as ActorRef,
  body: row.body,
  mentions: (row.mentions as string[] | null) ?? [],
  createdAt: row.createdAt.toISOString(),
})

const postNotFound = () => new AppError('not_found', 'Post not found.')

async function requireVisiblePost(deps: Pick<Deps, 'db'>, caller: Caller, postId: string): Promise<void> {
  const visible = await postVisibleTo(deps.db, {
    workspaceId: caller.workspaceId,
    postId,
    groupIds: caller.access.groupIds,
  })
  if (!visible) throw postNotFound()
}

export async function listNotes(deps: Pick<Deps, 'db'>, caller: Caller, postId: string): Promise<PostNote[]> {
  await requireVisiblePost(deps, caller, postId)
  return (await selectPostNotes(deps.db, caller.workspaceId, postId)).map(toNote)
}

export async function createNote(
  deps: Pick<Deps, 'db' | 'clock'>,
  caller: Caller,
  postId: string,
  input: { body: string; mentions?: string[] | undefined },
): Promise<PostNote> {
  const body = input.body.trim()
  if (!body)
    throw new AppError('invalid_request', 'A note needs some text.', {
      details: [{ path: 'body', message: 'Write something.' }],
    })
  await requireVisiblePost(deps, caller, postId)
  const mentions = [...new Set(input.mentions ?? [])]
  const now = deps.clock.now()
  return deps.db.transaction(async (tx) => {
    const found = await selectMembersByIds(tx, caller.workspaceId, mentions)
    const unknown = mentions.filter((id) => !found.some((m) => m.userId === id))
    if (unknown.length > 0) {
      throw new AppError(
        'invalid_option',
        `Only members of this workspace can be mentioned; ${unknown.map((id) => `"${id}"`).join(', ')} ${unknown.length === 1 ? 'is not one' : 'are not'}. GET /v1/members lists them.`,
        { details: unknown.map((id) => ({ path: 'mentions', message: `${id} is not a member of this workspace.` })) },
      )
    }
    const row = await insertPostNote(tx, {
      id: newId('note'),
      workspaceId: caller.workspaceId,
      postId,
      author: caller.actor,
      authorUserId: caller.userId,
      body,
      mentions,
      createdAt: now,
    })
    if (mentions.length > 0) {
      await notify(tx, {
        workspaceId: caller.workspaceId,
        kind: 'mentioned',
        recipients: { userIds: mentions, groupScopeOfPostId: postId },
        title: `${caller.actor.name} mentioned you in a note`,
        body: body.length > 500 ? `${body.slice(0, 497)}...` : body,
        link: `/app/w/${caller.workspaceId}/posts/${postId}`,
        subject: { type: 'post', id: postId },
        exceptUserId: caller.userId,
        now,
      })
    }
    return toNote(row)
  })
}

/** Deletes a note: its author, or an owner or admin. */
export async function deleteNote(
  deps: Pick<Deps, 'db' | 'clock'>,
  caller: Caller,
  postId: string,
  noteId: string,
): Promise<{ id: string; deleted: true }> {
  await requireVisiblePost(deps, caller, postId)
  const note = await findPostNote(deps.db, { workspaceId: caller.workspaceId, postId, noteId })
  if (!note) throw new AppError('not_found', 'Note not found.')
  const author = note.author as ActorRef
  const own =
    (caller.userId !== null && note.authorUserId === caller.userId) ||
    (author.kind === caller.actor.kind && author.id !== null && author.id === caller.actor.id)
  if (!own && !canManage(caller.access.role)) {
    throw new AppError('forbidden', 'Only the author of a note, an owner or an admin can delete it.')
  }
  await markPostNoteDeleted(deps.db, note.id, deps.clock.now())
  return { id: note.id, deleted: true }
}

/** The workspace's members, for mentions and pickers: name, email, role and group limits. */
export async function listMembersWithGroups(deps: Pick<Deps, 'db'>, caller: Caller): Promise<Member[]> {
  const rows = await selectMembersWithGroups(deps.db, caller.workspaceId)
  return rows.map((r) => ({ ...r, groupIds: canManage(r.role) ? null : r.groupIds }))
}
