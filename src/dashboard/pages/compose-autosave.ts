/**
 * Draft autosave: the composer's script posts the form here a moment after the member stops typing.
 * The first save of a new post creates a draft through the same service as `POST /v1/posts`
 * (`action: 'draft'`), and the answer names the draft's edit and autosave addresses, so later saves
 * and the final submit update that one draft (`PATCH /v1/posts/{id}`'s service): no second copy,
 * and nothing is created for a visit where nothing was written (the script sends nothing until then).
 * Only a draft is saved this way: a scheduled post changes when the member submits it.
 */
import { dashboardCaller } from '../caller'
import { requirePermission } from '../workspace'
import { assertAccountsVisible, assertPostWritable } from '../../services/access/visibility'
import type { Hono } from 'hono'
import { CreatePostSchema, UpdatePostSchema } from '../../schemas/posts'
import { getPost } from '../../services/posts/read'
import type { CreatePostInput, UpdatePostInput } from '../../services/posts/types'
import { createPost } from '../../services/posts/create'
import { updatePost } from '../../services/posts/update'
import { type DashboardEnv, workspacePage } from '../env'
import { bodyOfValues, problemsByField, schemaProblems, valuesFromForm } from './compose-form'
import { frame, orNotFound, type PageContext, refusalOf } from './shared'

/** What the script is told after a save attempt. */
interface AutosaveAnswer {
  saved: boolean
  postId?: string
  editUrl?: string
  autosaveUrl?: string
  savedAt?: string
  fields?: Record<string, string[]>
}

async function draftBody(c: PageContext) {
  const values = valuesFromForm(await c.req.parseBody({ all: true }))
  return bodyOfValues(values, 'draft', c.get('member').timeZone).body
}

function refused(c: PageContext, err: unknown) {
  const refusal = refusalOf(err)
  const details = refusal.details.length ? refusal.details : [{ path: '', message: refusal.message }]
  return c.json<AutosaveAnswer>({ saved: false, fields: problemsByField(details) }, 422)
}

function savedAnswer(c: PageContext, postId: string): AutosaveAnswer {
  const { member } = frame(c)
  return {
    saved: true,
    postId,
    editUrl: workspacePage(member, `/posts/${postId}/edit`),
    autosaveUrl: workspacePage(member, `/posts/${postId}/autosave`),
    savedAt: c.var.deps.clock.now().toISOString(),
  }
}

export function registerComposeAutosave(app: Hono<DashboardEnv>): void {
  app.post('/compose/autosave', async (c) => {
    const denied = requirePermission(c, 'write')
    if (denied) return denied
    const parsed = CreatePostSchema.safeParse(await draftBody(c))
    if (!parsed.success) {
      return c.json<AutosaveAnswer>({ saved: false, fields: problemsByField(schemaProblems(parsed.error)) }, 422)
    }
    try {
      const caller = dashboardCaller(c)
      await assertAccountsVisible(c.var.deps.db, caller, parsed.data.accountIds)
      const post = await createPost(c.var.deps, caller, parsed.data as CreatePostInput)
      return c.json(savedAnswer(c, post.id), 201)
    } catch (err) {
      return refused(c, err)
    }
  })

  app.post('/posts/:postId/autosave', (c) =>
    orNotFound(c, async () => {
      const denied = requirePermission(c, 'write')
      if (denied) return denied
      const { member } = frame(c)
      const postId = c.req.param('postId')
      await assertPostWritable(c.var.deps.db, dashboardCaller(c), postId)
      const post = await getPost(c.var.deps.db, member.workspaceId, postId)
      if (post.status !== 'DRAFT') {
        const message = 'Only a draft is saved as you write; submit the form to change this post.'
        return c.json<AutosaveAnswer>({ saved: false, fields: { post: [message] } }, 409)
      }
      const body = await draftBody(c)
      const parsed = UpdatePostSchema.safeParse({ ...body, action: undefined })
      if (!parsed.success) {
        return c.json<AutosaveAnswer>({ saved: false, fields: problemsByField(schemaProblems(parsed.error)) }, 422)
      }
      try {
        await updatePost(c.var.deps, dashboardCaller(c), postId, parsed.data as UpdatePostInput)
        return c.json(savedAnswer(c, postId))
      } catch (err) {
        return refused(c, err)
      }
    }),
  )
}
