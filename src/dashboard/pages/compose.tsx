/**
 * The composer (`/compose`, and `/posts/{id}/edit` for a draft or scheduled post): the form posts
 * the API's post body to the same services as `POST /v1/posts` and `PATCH /v1/posts/{id}`, and
 * its script asks `/compose/check` (the dry run behind `POST /v1/posts/validate`) for each
 * network's count, errors and warnings as the member types.
 */
import { dashboardCaller } from '../caller'
import type { Hono } from 'hono'
import { CreatePostSchema, UpdatePostSchema } from '../../schemas/posts'
import { type AccountRecord, listAccounts } from '../../services/accounts/accounts'
import { listAccountBoards } from '../../services/accounts/boards'
import { listAccountDestinations } from '../../services/accounts/destinations'
import { choosesDestination, type DestinationChoices } from './compose-target-options'
import { getBestTimes } from '../../services/analytics/best-times'
import { listAssets } from '../../services/media/assets'
import { getQueueSchedule } from '../../services/queue-slots'
import { getPost } from '../../services/posts/read'
import type { CreatePostInput, UpdatePostInput } from '../../services/posts/types'
import { validateNewPost } from '../../services/posts/validate'
import { createPost } from '../../services/posts/create'
import { updatePost } from '../../services/posts/update'
import { type DashboardEnv, workspacePage } from '../env'
import { Layout } from '../layout'
import {
  bodyOfValues,
  type ComposeValues,
  EMPTY_VALUES,
  fieldOfPath,
  problemsByField,
  schemaProblems,
  valuesFromForm,
  valuesFromPost,
} from './compose-form'
import { type BoardChoices, ComposeView } from './compose-view'
import { registerComposeAutosave } from './compose-autosave'
import { bestTimeHint, type ScheduleHints, slotLabel } from './compose-schedule'
import { frame, orNotFound, type PageContext, refusalOf } from './shared'
import { composeExtras, reviewIntentOf, submitAndOpen, withNewLabel } from './compose-approval'
import { NotesPanel } from './post-notes'
import { loadPostReview } from './post-review-data'
import { ClientScript } from '../assets/client-assets'
import { requirePermission } from '../workspace'
import { assertAccountsVisible, assertPostWritable } from '../../services/access/visibility'
import { fromLocalInput, toLocalInput } from './zoned-time'

const ACTIONS = new Set(['draft', 'now', 'schedule', 'queue', 'review'])

/** The queue's next free slot and the best-times hint, from the services behind the API's queue and analytics. */
async function scheduleHints(c: PageContext): Promise<ScheduleHints> {
  const { member } = frame(c)
  const { db, clock } = c.var.deps
  const now = clock.now()
  const [queue, best] = await Promise.all([
    getQueueSchedule(db, member.workspaceId, now),
    getBestTimes(db, member.workspaceId, now, member.groupIds),
  ])
  const at = queue.nextFreeSlot
  return {
    nextFreeSlot: at ? { value: toLocalInput(at, member.timeZone), label: slotLabel(at, member.timeZone) } : null,
    bestTime: bestTimeHint(best.overall),
  }
}

/**
 * The boards of each pinboard account, as its network lists them now (the API's boards operation), so
 * the member picks one by name; where the network cannot answer, its reason, and the field takes an id.
 */
async function boardChoices(c: PageContext, accounts: AccountRecord[]): Promise<BoardChoices> {
  const { member } = frame(c)
  const pinboards = accounts.filter((a) => a.platform === 'PINBOARD_NET' && a.status !== 'DISCONNECTED')
  const listed = await Promise.all(
    pinboards.map(async (a) => {
      try {
        return [a.id, await listAccountBoards(c.var.deps, member.workspaceId, a.id)] as const
      } catch (err) {
        return [a.id, refusalOf(err).message] as const
      }
    }),
  )
  return Object.fromEntries(listed)
}

/** The destinations of each account whose network has them (compose-target-options.tsx), as the boards are. */
async function destinationChoices(c: PageContext, accounts: AccountRecord[]): Promise<DestinationChoices> {
  const { member } = frame(c)
  const placed = accounts.filter((a) => choosesDestination(a) && a.status !== 'DISCONNECTED')
  const listed = await Promise.all(
    placed.map(async (a) => {
      try {
        return [a.id, await listAccountDestinations(c.var.deps, member.workspaceId, a.id)] as const
      } catch (err) {
        return [a.id, refusalOf(err).message] as const
      }
    }),
  )
  return Object.fromEntries(listed)
}

async function renderComposer(
  c: PageContext,
  opts: {
    values: ComposeValues
    errors?: Record<string, string[]>
    postId?: string
    /** The post being edited is a draft: the script saves it as the member writes. */
    draft?: boolean
    /** The post being edited: whether it needs approval, and its status (changes requested: submit again). */
    post?: { approvalRequired: boolean; status: string; intentAction?: 'schedule' | 'queue' | 'now' | null }
    status?: 200 | 422
  },
) {
  const { member, csrfToken } = frame(c)
  const { deps } = c.var
  const [all, media, schedule, extras, review] = await Promise.all([
    listAccounts(deps.db, member.workspaceId),
    listAssets(deps.db, member.workspaceId),
    scheduleHints(c),
    composeExtras(c, opts.values, opts.post ?? null),
    opts.postId ? loadPostReview(c, opts.postId) : null,
  ])
  const accounts = all.filter((a) => a.status !== 'DISCONNECTED' || opts.values.accountIds.includes(a.id))
  const [boards, destinations] = await Promise.all([boardChoices(c, accounts), destinationChoices(c, accounts)])
  const title = opts.postId ? 'Edit post' : 'Compose'
  const autosave = opts.postId
    ? opts.draft
      ? workspacePage(member, `/posts/${opts.postId}/autosave`)
      : null
    : workspacePage(member, '/compose/autosave')
  return c.html(
    <Layout title={title} member={member} csrfToken={csrfToken} current="compose">
      <h1>{title}</h1>
      <ComposeView
        action={workspacePage(member, opts.postId ? `/posts/${opts.postId}/edit` : '/compose')}
        checkUrl={workspacePage(member, '/compose/check')}
        autosaveUrl={autosave}
        schedule={schedule}
        uploadUrl={workspacePage(member, '/media/uploads')}
        registerUrl={workspacePage(member, '/media/register')}
        mediaUrl={workspacePage(member, '/media')}
        csrfToken={csrfToken}
        timeZone={member.timeZone}
        accounts={accounts}
        boards={boards}
        destinations={destinations}
        media={media}
        values={opts.values}
        errors={opts.errors ?? {}}
        editing={opts.postId !== undefined}
        {...extras}
      />
      {review && opts.postId ? (
        <div class="composer-notes">
          <NotesPanel {...review.notes} back={workspacePage(member, `/posts/${opts.postId}/edit`)} />
        </div>
      ) : null}
      {review ? <ClientScript page="notes" /> : null}
    </Layout>,
    opts.status ?? 200,
  )
}

/**
 * The submitted form: its values (with the new label it named created), the action, the body it
 * means (a post for review is saved as a draft) and, for review, what to do once approved.
 */
async function readForm(c: PageContext) {
  const form = await c.req.parseBody()
  const values = await withNewLabel(c, valuesFromForm(await c.req.parseBody({ all: true })))
  const raw = form.action
  const action = typeof raw === 'string' && ACTIONS.has(raw) ? raw : 'draft'
  const tz = c.get('member').timeZone
  const asked = action === 'review' ? reviewIntentOf(form, values, tz) : null
  const { body, problems } = bodyOfValues(values, asked ? 'draft' : action, tz)
  if (asked?.problem) problems.push(asked.problem)
  return { values, action: asked ? 'draft' : action, review: asked?.intent ?? null, body, problems }
}

/** The role may write posts, and publish them unless it only saves a draft or submits it. */
function refusedFor(c: PageContext, action: string): Response | null {
  return requirePermission(c, 'write') ?? (action === 'draft' ? null : requirePermission(c, 'publish'))
}

/** Registers the composer's pages, its submit actions, the live check and the draft autosave. */
export function registerComposer(app: Hono<DashboardEnv>): void {
  registerComposeAutosave(app)
  app.get('/compose', (c) => {
    const refused = requirePermission(c, 'write')
    if (refused) return refused
    const at = c.req.query('at')
    const values = { ...EMPTY_VALUES, scheduledAt: at && fromLocalInput(at, c.get('member').timeZone) ? at : '' }
    return renderComposer(c, { values })
  })

  app.post('/compose', async (c) => {
    const { member } = frame(c)
    const mayWrite = requirePermission(c, 'write')
    if (mayWrite) return mayWrite
    const { values, action, review, body, problems } = await readForm(c)
    const refused = refusedFor(c, action)
    if (refused) return refused
    const parsed = CreatePostSchema.safeParse(body)
    if (!parsed.success || problems.length > 0) {
      const all = [...problems, ...(parsed.success ? [] : schemaProblems(parsed.error))]
      return renderComposer(c, { values, errors: problemsByField(all), status: 422 })
    }
    try {
      const caller = dashboardCaller(c)
      await assertAccountsVisible(c.var.deps.db, caller, parsed.data.accountIds)
      const post = await createPost(c.var.deps, caller, parsed.data as CreatePostInput)
      if (review) return submitAndOpen(c, post.id, review)
      return c.redirect(workspacePage(member, `/posts/${post.id}`), 303)
    } catch (err) {
      const refusal = refusalOf(err)
      const details = refusal.details.length ? refusal.details : [{ path: '', message: refusal.message }]
      return renderComposer(c, { values, errors: problemsByField(details), status: 422 })
    }
  })

  app.get('/posts/:postId/edit', (c) =>
    orNotFound(c, async () => {
      const refused = requirePermission(c, 'write')
      if (refused) return refused
      const { member } = frame(c)
      await assertPostWritable(c.var.deps.db, dashboardCaller(c), c.req.param('postId'))
      const post = await getPost(c.var.deps.db, member.workspaceId, c.req.param('postId'))
      const values = valuesFromPost(post, member.timeZone)
      return renderComposer(c, {
        values,
        postId: post.id,
        draft: post.status === 'DRAFT',
        post: {
          approvalRequired: post.approvalRequired,
          status: post.status,
          intentAction: post.approval?.intent?.action ?? null,
        },
      })
    }),
  )

  app.post('/posts/:postId/edit', (c) =>
    orNotFound(c, async () => {
      const { member } = frame(c)
      const postId = c.req.param('postId')
      const mayWrite = requirePermission(c, 'write')
      if (mayWrite) return mayWrite
      const { values, action, review, body, problems } = await readForm(c)
      const refused = refusedFor(c, action)
      if (refused) return refused
      await assertPostWritable(c.var.deps.db, dashboardCaller(c), postId)
      const parsed = UpdatePostSchema.safeParse({ ...body, action: action === 'draft' ? undefined : action })
      if (!parsed.success || problems.length > 0) {
        const all = [...problems, ...(parsed.success ? [] : schemaProblems(parsed.error))]
        return renderComposer(c, { values, errors: problemsByField(all), postId, status: 422 })
      }
      try {
        await updatePost(c.var.deps, dashboardCaller(c), postId, parsed.data as UpdatePostInput)
        if (review) return submitAndOpen(c, postId, review)
        return c.redirect(workspacePage(member, `/posts/${postId}`), 303)
      } catch (err) {
        const refusal = refusalOf(err)
        const details = refusal.details.length ? refusal.details : [{ path: '', message: refusal.message }]
        return renderComposer(c, { values, errors: problemsByField(details), postId, status: 422 })
      }
    }),
  )

  /** The live check: per network, the caption's length as it counts it, its budget, errors and warnings. */
  app.post('/compose/check', async (c) => {
    const refused = requirePermission(c, 'write')
    if (refused) return refused
    const { member } = frame(c)
    const values = valuesFromForm(await c.req.parseBody({ all: true }))
    const { body, problems } = bodyOfValues(values, 'now', member.timeZone)
    const parsed = CreatePostSchema.safeParse(body)
    if (!parsed.success) {
      const all = [...problems, ...schemaProblems(parsed.error)]
      return c.json({ valid: false, counts: [], fields: problemsByField(all), warnings: [] })
    }
    const report = await validateNewPost(c.var.deps, member.workspaceId, parsed.data as CreatePostInput)
    const issues = [...problems, ...report.errors, ...report.targets.flatMap((t) => t.errors)]
    return c.json({
      valid: report.valid && problems.length === 0,
      counts: report.targets.map((t) => ({
        accountId: t.accountId,
        platform: t.platform,
        length: t.captionLength,
        limit: t.captionLimit,
        format: t.format,
      })),
      fields: problemsByField(issues),
      warnings: [...report.warnings, ...report.targets.flatMap((t) => t.warnings)].map((w) => ({
        field: fieldOfPath(w.path ?? ''),
        message: w.message,
      })),
    })
  })
}
