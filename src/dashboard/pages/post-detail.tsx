/**
 * A post's page (`/posts/{id}`): each target's status, permalink and error, and the actions of
 * `POST /v1/posts/{id}/retry`, `/publish` and `DELETE /v1/posts/{id}` (with the opt-in removal
 * from the networks), through the same services.
 */
import type { Hono } from 'hono'
import { RULES } from '../../domain/rules/index'
import { listAccounts } from '../../services/accounts'
import { deletePostFromNetworks, type PostNetworkDeletion } from '../../services/posts/delete-from-networks'
import { getPost } from '../../services/posts/read'
import type { PostRecord } from '../../services/posts/record'
import { publishPostNow, retryFailedTargets } from '../../services/publishing/actions'
import { deletePost } from '../../services/posts/write'
import { type DashboardEnv, workspacePage } from '../env'
import { Layout } from '../layout'
import {
  back,
  CsrfField,
  frame,
  isNotFound,
  Notice,
  orNotFound,
  type PageContext,
  refusalOf,
  StatusBadge,
  ZonedTime,
} from './shared'

const EDITABLE = new Set(['DRAFT', 'SCHEDULED'])

function PostDetail({ c, post, names }: { c: PageContext; post: PostRecord; names: Map<string, string> }) {
  const { member, csrfToken } = frame(c)
  const url = (path = '') => workspacePage(member, `/posts/${post.id}${path}`)
  const failed = post.targets.some((t) => t.status === 'FAILED')
  const published = post.targets.filter((t) => t.status === 'PUBLISHED' || t.platformPostId !== null)
  const keeps = [...new Set(post.targets.map((t) => t.platform).filter((p) => !RULES[p].deleteSupported))]
  return (
    <>
      <h1>
        Post <StatusBadge status={post.status} />
      </h1>
      <Notice c={c} />
      <dl class="facts">
        <dt>Caption</dt>
        <dd class="caption">{post.caption ?? ''}</dd>
        <dt>Scheduled for</dt>
        <dd>
          <ZonedTime at={post.scheduledAt} timeZone={member.timeZone} />
        </dd>
        <dt>Published</dt>
        <dd>
          <ZonedTime at={post.publishedAt} timeZone={member.timeZone} />
        </dd>
      </dl>
      <table class="targets">
        <caption>Targets</caption>
        <thead>
          <tr>
            <th scope="col">Account</th>
            <th scope="col">Network</th>
            <th scope="col">Status</th>
            <th scope="col">Permalink</th>
            <th scope="col">Error</th>
            <th scope="col">Attempts</th>
          </tr>
        </thead>
        <tbody>
          {post.targets.map((t) => (
            <tr id={`target-${t.id}`}>
              <td>{names.get(t.accountId) ?? t.accountId}</td>
              <td>{t.platform}</td>
              <td>
                <StatusBadge status={t.status} />
              </td>
              <td>{t.permalink ? <a href={t.permalink}>{t.permalink}</a> : '-'}</td>
              <td>{t.error ? `${t.error.message} (${t.error.code})` : '-'}</td>
              <td>{t.attempts}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="actions">
        {EDITABLE.has(post.status) ? <a href={url('/edit')}>Edit</a> : null}
        {EDITABLE.has(post.status) ? (
          <form method="post" action={url('/publish')}>
            <CsrfField token={csrfToken} />
            <button type="submit">Publish now</button>
          </form>
        ) : null}
        {failed ? (
          <form method="post" action={url('/retry')}>
            <CsrfField token={csrfToken} />
            <button type="submit">Retry failed targets</button>
          </form>
        ) : null}
      </div>
      <form method="post" action={url('/delete')} class="danger">
        <CsrfField token={csrfToken} />
        <h2>Delete</h2>
        {published.length > 0 ? (
          <div class="check">
            <input type="checkbox" name="fromNetworks" value="true" id="fromNetworks" aria-describedby="keeps" />
            <label for="fromNetworks">Also remove it from the networks where it was published</label>
          </div>
        ) : null}
        <p id="keeps">
          {keeps.length > 0
            ? `These networks cannot delete a post through their API; it stays published there: ${keeps.join(', ')}.`
            : 'Without the box ticked, what is published stays on the networks.'}
        </p>
        <button type="submit">Delete post</button>
      </form>
    </>
  )
}

function DeletionResult({ c, result }: { c: PageContext; result: PostNetworkDeletion }) {
  const { member } = frame(c)
  return (
    <>
      <h1>{result.deleted ? 'Post deleted' : 'Post partly deleted'}</h1>
      <ul class="removals">
        {result.targets.map((t) => (
          <li>
            <strong>{t.platform}</strong> ({t.outcome}): {t.message}
          </li>
        ))}
      </ul>
      <p>
        {result.deleted ? (
          <a href={workspacePage(member, '/calendar')}>Back to the calendar</a>
        ) : (
          <a href={workspacePage(member, `/posts/${result.id}`)}>Back to the post (what is left to do)</a>
        )}
      </p>
    </>
  )
}

/** Registers the post page and its actions. */
export function registerPostDetail(app: Hono<DashboardEnv>): void {
  app.get('/posts/:postId', (c) =>
    orNotFound(c, async () => {
      const { member, csrfToken } = frame(c)
      const post = await getPost(c.var.deps.db, member.workspaceId, c.req.param('postId'))
      const accounts = await listAccounts(c.var.deps.db, member.workspaceId)
      const names = new Map(accounts.map((a) => [a.id, a.username]))
      return c.html(
        <Layout title="Post" member={member} csrfToken={csrfToken} current="calendar">
          <PostDetail c={c} post={post} names={names} />
        </Layout>,
      )
    }),
  )

  const act = (path: string, run: (c: PageContext, postId: string) => Promise<unknown>, done: string) =>
    app.post(`/posts/:postId/${path}`, (c) =>
      orNotFound(c, async () => {
        const postId = c.req.param('postId')
        const page = workspacePage(c.get('member'), `/posts/${postId}`)
        try {
          await run(c, postId)
        } catch (err) {
          if (isNotFound(err)) throw err
          return back(c, page, { problem: refusalOf(err).message })
        }
        return back(c, page, { notice: done })
      }),
    )
  act(
    'retry',
    (c, id) => retryFailedTargets(c.var.deps, c.get('member').workspaceId, id),
    'Failed targets are publishing again.',
  )
  act('publish', (c, id) => publishPostNow(c.var.deps, c.get('member').workspaceId, id), 'Publishing now.')

  app.post('/posts/:postId/delete', (c) =>
    orNotFound(c, async () => {
      const { member, csrfToken } = frame(c)
      const postId = c.req.param('postId')
      const form = await c.req.parseBody()
      if (form.fromNetworks !== 'true') {
        await deletePost(c.var.deps, member.workspaceId, postId)
        return back(c, workspacePage(member, '/calendar'), { notice: 'Post deleted.' })
      }
      const result = await deletePostFromNetworks(c.var.deps, member.workspaceId, postId)
      return c.html(
        <Layout title="Post deleted" member={member} csrfToken={csrfToken} current="calendar">
          <DeletionResult c={c} result={result} />
        </Layout>,
      )
    }),
  )
}
