/**
 * The post page's review and notes forms: submit for review, approve, request changes
 * (`POST /v1/posts/{id}/submit|approve|request-changes`) and add or delete a note
 * (`POST /v1/posts/{id}/notes`, `DELETE /v1/posts/{id}/notes/{noteId}`), through the same services.
 * Each route checks the role first (`requirePermission`); the services check the state, the version
 * and the member's groups. A decision on a post that changed since the page was drawn is refused
 * and the page is drawn again with what changed.
 */
import type { Hono } from 'hono'
import { AppError } from '../../domain/errors'
import type { Permission } from '../../domain/access'
import { createNote, deleteNote } from '../../services/notes/notes'
import { listMembers } from '../../services/people/memberships'
import { approvePost, requestPostChanges, submitPost } from '../../services/posts/approval'
import { dashboardCaller } from '../caller'
import { assertPostVisible } from '../../services/access/visibility'
import { type DashboardEnv, workspacePage } from '../env'
import { requirePermission } from '../workspace'
import { fromLocalInput } from './zoned-time'
import { mentionsIn } from './post-notes'
import { back, isNotFound, orNotFound, type PageContext, refusalOf } from './shared'

type Form = Record<string, string | File | (string | File)[]>

const text = (form: Form, name: string): string | undefined => {
  const v = form[name]
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined
}

const versionOf = (form: Form): number | undefined => {
  const n = Number.parseInt(text(form, 'version') ?? '', 10)
  return Number.isFinite(n) ? n : undefined
}

/** What the member sees when a decision met a newer version of the post. */
export const STALE_MESSAGE = 'This post changed since you opened it'

/** Where a notes form goes back to: its `back` field when it is a page of this workspace, else the post. */
function backOf(c: PageContext, form: Form, postId: string): string {
  const member = c.get('member')
  const asked = text(form, 'back')
  return asked?.startsWith(`${workspacePage(member)}/`) ? asked : workspacePage(member, `/posts/${postId}`)
}

/** The submitted intent: the action chosen and, to schedule, the time in the zone. */
function intentOf(c: PageContext, form: Form) {
  const action = text(form, 'action')
  const local = text(form, 'scheduledAt')
  const at = local ? fromLocalInput(local, c.get('member').timeZone) : null
  if (action === 'queue' || action === 'now') return { action } as const
  if (action === 'schedule') return { action, scheduledAt: at ?? undefined } as const
  return {}
}

/** Runs a review action for the post in the path and goes back to its page with the outcome in words. */
function act(
  app: Hono<DashboardEnv>,
  path: string,
  permission: Permission,
  run: (c: PageContext, postId: string, form: Form) => Promise<string>,
) {
  app.post(`/posts/:postId/${path}`, (c) =>
    orNotFound(c, async () => {
      const refused = requirePermission(c, permission)
      if (refused) return refused
      const postId = c.req.param('postId')
      // Outside the member's groups: not found, before the form is read.
      await assertPostVisible(c.var.deps.db, dashboardCaller(c), postId)
      const form = (await c.req.parseBody()) as Form
      const page = path.startsWith('notes')
        ? backOf(c, form, postId)
        : workspacePage(c.get('member'), `/posts/${postId}`)
      try {
        return back(c, page, { notice: await run(c, postId, form) })
      } catch (err) {
        if (isNotFound(err)) throw err
        if (err instanceof AppError && err.code === 'post_changed')
          return back(c, page, { problem: `${STALE_MESSAGE}: ${err.message} Read it again before you decide.` })
        return back(c, page, { problem: refusalOf(err).message })
      }
    }),
  )
}

/** Registers the review and notes forms of the post page (and of the composer's notes). */
export function registerPostReview(app: Hono<DashboardEnv>): void {
  act(app, 'submit', 'write', async (c, postId, form) => {
    await submitPost(c.var.deps, dashboardCaller(c), postId, { ...intentOf(c, form), note: text(form, 'note') })
    return 'Submitted for review. Reviewers are told.'
  })
  act(app, 'approve', 'review', async (c, postId, form) => {
    const post = await approvePost(c.var.deps, dashboardCaller(c), postId, {
      version: versionOf(form),
      comment: text(form, 'comment'),
    })
    return post.status === 'SCHEDULED' ? 'Approved: the post is scheduled.' : 'Approved.'
  })
  act(app, 'request-changes', 'review', async (c, postId, form) => {
    const comment = text(form, 'comment')
    if (!comment) throw new AppError('invalid_request', 'Say what should change: the comment is required.')
    await requestPostChanges(c.var.deps, dashboardCaller(c), postId, { comment, version: versionOf(form) })
    return 'Changes requested. The author is told.'
  })
  act(app, 'notes', 'comment', async (c, postId, form) => {
    const body = text(form, 'body')
    if (!body) throw new AppError('invalid_request', 'Write something in the note first.')
    const members = await listMembers(c.var.deps.db, c.get('member').workspaceId)
    await createNote(c.var.deps, dashboardCaller(c), postId, { body, mentions: mentionsIn(body, members) })
    return 'Note added.'
  })
  act(app, 'notes/:noteId/delete', 'comment', async (c, postId) => {
    await deleteNote(c.var.deps, dashboardCaller(c), postId, c.req.param('noteId') ?? '')
    return 'Note deleted.'
  })
}
