/**
 * The inbox's addresses: `/inbox` (the list with its filters), `/inbox/{id}` (the list with that
 * comment opened, which marks it read) and `POST /inbox/{id}/{action}` (reply, hide, unhide, delete,
 * like, read, unread) through the services `/v1/inbox` calls. Another workspace's comment is the 404
 * page; a refusal comes back as a notice in words on the page the member came from.
 */
import type { Context, Hono } from 'hono'
import type { Permission } from '../../../domain/access'
import { AppError } from '../../../domain/errors'
import { statusOf } from '../../../http/errors'
import { assertCommentVisible } from '../../../services/access/visibility'
import { listAccounts } from '../../../services/accounts/accounts'
import { dashboardCaller } from '../../caller'
import { getPost } from '../../../services/posts/read'
import { type DashboardEnv, workspacePage } from '../../env'
import { permitted } from '../../workspace'
import { Layout } from '../../layout'
import { waitInWords } from '../../ui/error-view'
import { networkName } from '../../ui'
import { back, frame, isNotFound, Notice, orNotFound, type PageContext, refusalOf } from '../shared'
import {
  filtersOf,
  type InboxAction,
  type InboxComment,
  listInbox,
  markRead,
  readComment,
  runAction,
  unreadCount,
} from './data'
import { InboxView, type OpenComment } from './view'

const ACTIONS = new Set(['reply', 'hide', 'unhide', 'delete', 'like', 'read', 'unread'])

/** Marking read or unread is reading; replying, hiding, liking and deleting write on the network. */
const actionPermission = (c: Context<DashboardEnv>): Permission =>
  ['read', 'unread'].includes(c.req.param('action') ?? '') ? 'read' : 'write'

/** The post a comment is on, when it is this workspace's: its page and the start of its caption. */
async function postOf(c: PageContext, comment: InboxComment): Promise<OpenComment['post']> {
  if (!comment.postId) return null
  const { member } = frame(c)
  try {
    const post = await getPost(c.var.deps.db, member.workspaceId, comment.postId)
    const text = post.caption ?? ''
    const caption = text.length > 90 ? `${text.slice(0, 88)}…` : text
    return { url: workspacePage(member, `/posts/${post.id}`), caption }
  } catch (err) {
    if (isNotFound(err)) return null
    throw err
  }
}

/** Opens a comment: reads it with its thread, marks it read when it was unread. */
async function openComment(c: PageContext, id: string): Promise<OpenComment> {
  const { deps } = c.var
  const { workspaceId } = frame(c).member
  // A member limited to some groups: a comment on an account outside them is not found.
  await assertCommentVisible(deps.db, dashboardCaller(c), id)
  let { comment, thread } = await readComment(deps, workspaceId, id)
  if (comment.state === 'unread') {
    await markRead(deps, workspaceId, { ids: [id], read: true, visibleGroupIds: null })
    ;({ comment, thread } = await readComment(deps, workspaceId, id))
  }
  return { comment, thread, post: await postOf(c, comment) }
}

async function inboxPage(c: PageContext, openId: string | null): Promise<Response> {
  const { member, csrfToken } = frame(c)
  const { deps } = c.var
  const filters = filtersOf(c.req.query())
  const open = openId ? await openComment(c, openId) : null
  const [page, accounts, unread] = await Promise.all([
    listInbox(deps, member.workspaceId, { ...filters, visibleGroupIds: member.groupIds ?? null }),
    listAccounts(deps.db, member.workspaceId, { visibleGroupIds: member.groupIds ?? null }),
    unreadCount(deps, member.workspaceId, member.groupIds ?? null),
  ])
  const shown = { ...member, unreadInbox: unread }
  const props = {
    page,
    filters,
    accounts,
    open,
    timeZone: member.timeZone,
    csrfToken,
    url: (path = '') => workspacePage(member, `/inbox${path}`),
  }
  return c.html(
    <Layout title="Inbox" member={shown} csrfToken={csrfToken} current="inbox">
      <InboxView p={props} notice={<Notice c={c} />} unread={unread} />
    </Layout>,
  )
}

/** What a refused action says, in words: gone (409), not allowed or too long (422), too many (429). */
export function actionProblem(err: unknown, platform: string | null): string {
  if (!(err instanceof AppError)) throw err
  const status = statusOf(err)
  const network = platform ? networkName(platform as never) : 'The network'
  if (status === 409)
    return `${network} no longer has this comment (deleted there, or its post was). It is marked gone.`
  if (status === 429) {
    const wait = err.retryAfterSec ? ` Try again in ${waitInWords(err.retryAfterSec)}.` : ''
    return `${network} is limiting how often this account can act right now.${wait}`
  }
  const { message, details } = refusalOf(err)
  const more = details.map((d) => d.message).filter((m) => m && m !== message)
  return [message, ...more].join(' ')
}

/** The page to come back to: the form's `return` when it is a page of this workspace, else the comment's. */
function returnOf(c: PageContext, form: Record<string, unknown>, fallback: string): string {
  const own = `${workspacePage(frame(c).member)}/`
  const asked = typeof form.return === 'string' ? form.return : ''
  return asked.startsWith(own) && !asked.includes('//', 1) && !asked.includes('\\') ? asked : fallback
}

async function act(c: PageContext, id: string, action: string): Promise<Response> {
  const { member } = frame(c)
  const { deps } = c.var
  const form = await c.req.parseBody()
  const inboxUrl = workspacePage(member, '/inbox')
  const to = returnOf(c, form, `${inboxUrl}/${id}`)
  const { comment } = await readComment(deps, member.workspaceId, id)
  try {
    if (action === 'read' || action === 'unread') {
      await markRead(deps, member.workspaceId, {
        ids: [id],
        read: action === 'read',
        visibleGroupIds: member.groupIds ?? null,
      })
      return back(c, action === 'unread' ? inboxUrl : to, {
        notice: action === 'unread' ? 'Marked unread.' : 'Marked read.',
      })
    }
    const text = typeof form.text === 'string' ? form.text : ''
    const key =
      typeof form.idempotencyKey === 'string' && form.idempotencyKey.length <= 100 ? form.idempotencyKey : undefined
    await runAction(deps, {
      workspaceId: member.workspaceId,
      commentId: id,
      action: action as InboxAction,
      text,
      idempotencyKey: key,
    })
  } catch (err) {
    if (isNotFound(err)) throw err
    return back(c, to, { problem: actionProblem(err, comment.platform) })
  }
  const after = action === 'delete' && to.startsWith(`${inboxUrl}/${id}`) ? inboxUrl : to
  return back(c, after, { notice: DONE[action] ?? 'Done.' })
}

const DONE: Record<string, string> = {
  reply: 'Reply sent.',
  hide: 'Comment hidden.',
  unhide: 'Comment shown again.',
  delete: 'Comment deleted.',
  like: 'Comment liked.',
}

/** Registers the inbox pages and their actions. */
export function registerInbox(app: Hono<DashboardEnv>): void {
  app.get('/inbox', (c) => orNotFound(c, () => inboxPage(c, null)))
  app.get('/inbox/:commentId', (c) => orNotFound(c, () => inboxPage(c, c.req.param('commentId'))))
  app.post('/inbox/:commentId/:action', permitted(actionPermission), (c) =>
    orNotFound(c, async () => {
      const action = c.req.param('action')
      if (!ACTIONS.has(action)) throw new AppError('not_found', 'No such action.')
      return act(c, c.req.param('commentId'), action)
    }),
  )
}
