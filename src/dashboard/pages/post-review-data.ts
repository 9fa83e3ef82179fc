/**
 * What the post page and the composer need for review and notes: the post's notes, the workspace's
 * members to mention, and the time a "Submit for review" form offers to schedule at.
 */
import { can } from '../../domain/access'
import { listMembers } from '../../services/people/memberships'
import { listNotes } from '../../services/notes/notes'
import { dashboardCaller } from '../caller'
import { workspacePage } from '../env'
import type { NotesPanelProps } from './post-notes'
import type { PageContext } from './shared'
import { toLocalInput } from './zoned-time'

export interface PostReviewData {
  /** An hour from now in the workspace zone, as a `datetime-local` value. */
  defaultLocal: string
  notes: Omit<NotesPanelProps, 'back'>
}

export async function loadPostReview(c: PageContext, postId: string): Promise<PostReviewData> {
  const member = c.get('member')
  const caller = dashboardCaller(c)
  const [notes, members] = await Promise.all([
    listNotes(c.var.deps, caller, postId),
    listMembers(c.var.deps.db, member.workspaceId),
  ])
  const now = c.var.deps.clock.now()
  return {
    defaultLocal: toLocalInput(new Date(now.getTime() + 3600_000), member.timeZone),
    notes: {
      notes: notes.map((n) => ({
        id: n.id,
        author: { name: n.author.name },
        authorUserId: n.author.kind === 'user' ? n.author.id : null,
        body: n.body,
        mentions: n.mentions,
        createdAt: n.createdAt,
      })),
      members: members.map((m) => ({ userId: m.userId, name: m.name })),
      userId: member.userId,
      manages: can(member.role, 'manage'),
      comments: can(member.role, 'comment'),
      csrfToken: c.get('csrfToken'),
      action: workspacePage(member, `/posts/${postId}/notes`),
      timeZone: member.timeZone,
    },
  }
}
