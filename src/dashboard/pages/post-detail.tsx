/**
 * A post's page (`/posts/{id}`): what it says (media, caption, overrides, thread, options), each
 * target's status in words with its permalink, error, retry and figures, and the actions of
 * `POST /v1/posts/{id}/retry`, `/publish` and `DELETE /v1/posts/{id}` (with the opt-in removal
 * from the networks), through the same services.
 */
import { dashboardCaller } from '../caller'
import type { Hono } from 'hono'
import { listAccounts } from '../../services/accounts/accounts'
import { deletePostFromNetworks, type PostNetworkDeletion } from '../../services/posts/delete-from-networks'
import { getPostMetrics, type TargetMetrics } from '../../services/analytics/post-metrics'
import { getAsset } from '../../services/media/assets'
import { getPost } from '../../services/posts/read'
import type { PostRecord } from '../../services/posts/record'
import { publishPostNow, retryFailedTargets } from '../../services/publishing/actions'
import { deletePost } from '../../services/posts/delete'
import { type DashboardEnv, workspacePage } from '../env'
import { Layout } from '../layout'
import { ClientScript } from '../assets/client-assets'
import { requirePermission } from '../workspace'
import { assertPostVisible, assertPostWritable } from '../../services/access/visibility'
import {
  back,
  CsrfField,
  frame,
  isNotFound,
  Notice,
  orNotFound,
  type PageContext,
  refusalOf,
  ZonedTime,
} from './shared'
import { type PostMedia, PostMediaList, PostOptions, postOptions, PostText } from './post-content'
import { PostTargets, targetLabel } from './post-targets'
import { PostComments } from './post-comments'
import { type InboxComment, listPostComments } from './inbox/data'
import { networkName, StatusBadge } from '../ui'
import { deletionNote, postSummary, STATUS_LABELS } from './post-wording'
import { can } from '../../domain/access'
import { ApprovalPanel } from './post-approval'
import { PostActions } from './post-actions'
import { NotesPanel } from './post-notes'
import { loadPostReview, type PostReviewData } from './post-review-data'

interface PostPageData {
  post: PostRecord
  names: Map<string, string>
  media: PostMedia[]
  metrics: Map<string, TargetMetrics>
  comments: InboxComment[]
  review: PostReviewData
}

/** What the post page shows, read through the services (404 for another workspace's post). */
async function loadPostPage(c: PageContext, postId: string): Promise<PostPageData> {
  const { db, clock } = c.var.deps
  const workspaceId = c.get('member').workspaceId
  await assertPostVisible(db, dashboardCaller(c), postId)
  const post = await getPost(db, workspaceId, postId)
  const [accounts, media, metrics, comments, review] = await Promise.all([
    listAccounts(db, workspaceId),
    Promise.all(
      post.mediaIds.map(async (id) => ({
        id,
        asset: await getAsset(db, workspaceId, id).catch((err) => {
          if (isNotFound(err)) return null
          throw err
        }),
      })),
    ),
    getPostMetrics(db, post, clock.now()),
    post.targets.some((t) => t.platformPostId !== null)
      ? listPostComments(c.var.deps, workspaceId, post.id)
      : Promise.resolve([]),
    loadPostReview(c, post.id),
  ])
  return { post, names: new Map(accounts.map((a) => [a.id, a.username])), media, metrics, comments, review }
}

function PostDetail({ c, data }: { c: PageContext; data: PostPageData }) {
  const { member, csrfToken } = frame(c)
  const { post } = data
  const url = (path = '') => workspacePage(member, `/posts/${post.id}${path}`)
  const published = post.targets.filter((t) => t.status === 'PUBLISHED' || t.platformPostId !== null)
  const wording = { label: targetLabel(data.names), timeZone: member.timeZone }
  const accountName = (id: string) => data.names.get(id) ?? 'a removed account'
  return (
    <>
      <header class="post-header">
        <h1>
          Post <StatusBadge status={post.status}>{STATUS_LABELS[post.status]}</StatusBadge>
        </h1>
        <p class="post-summary">{postSummary(post, wording)}</p>
        <PostActions c={c} post={post} />
      </header>
      <Notice c={c} />
      <div class="post-layout">
        <div class="post-main">
          <PostText post={post} />
          <PostMediaList media={data.media} />
          <PostTargets
            post={post}
            wording={wording}
            metrics={data.metrics}
            csrfToken={csrfToken}
            url={url}
            accountsUrl={workspacePage(member, '/accounts')}
          />
          <PostComments
            post={post}
            comments={data.comments}
            csrfToken={csrfToken}
            timeZone={member.timeZone}
            inboxUrl={workspacePage(member, '/inbox')}
            returnTo={url()}
            label={wording.label}
          />
        </div>
        <aside class="post-side">
          <ApprovalPanel
            post={post}
            role={member.role}
            timeZone={member.timeZone}
            csrfToken={csrfToken}
            url={url}
            defaultLocal={data.review.defaultLocal}
          />
          <NotesPanel {...data.review.notes} back={url()} />
          <PostOptions options={postOptions(post, accountName)} />
          <section class="post-section" aria-labelledby="post-times-title">
            <h2 id="post-times-title">Times ({member.timeZone})</h2>
            <dl class="post-options">
              <div>
                <dt>Scheduled for</dt>
                <dd>
                  {post.scheduledAt ? <ZonedTime at={post.scheduledAt} timeZone={member.timeZone} /> : 'Not scheduled'}
                </dd>
              </div>
              <div>
                <dt>Published</dt>
                <dd>
                  {post.publishedAt ? (
                    <ZonedTime at={post.publishedAt} timeZone={member.timeZone} />
                  ) : published.length > 0 ? (
                    'On some accounts (see each one)'
                  ) : (
                    'Not yet'
                  )}
                </dd>
              </div>
              <div>
                <dt>Created</dt>
                <dd>
                  <ZonedTime at={post.createdAt} timeZone={member.timeZone} />
                </dd>
              </div>
            </dl>
          </section>
          {!can(member.role, 'write') ? null : post.source === 'external' ? (
            <section class="post-section" aria-labelledby="post-external-title">
              <h2 id="post-external-title">Imported post</h2>
              <p>
                Published on the network outside this service and imported from it: it is read-only here. Edit or delete
                it on the network itself; its figures stay here.
              </p>
            </section>
          ) : (
            <form method="post" action={url('/delete')} class="danger post-section">
              <CsrfField token={csrfToken} />
              <h2>Delete</h2>
              {published.length > 0 ? (
                <div class="check">
                  <input type="checkbox" name="fromNetworks" value="true" id="fromNetworks" aria-describedby="keeps" />
                  <label for="fromNetworks">Also remove it from the networks where it was published</label>
                </div>
              ) : null}
              <p id="keeps">{deletionNote(post)}</p>
              <button type="submit" class="button-danger">
                Delete post
              </button>
            </form>
          )}
        </aside>
      </div>
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
            <strong>{networkName(t.platform)}</strong> ({t.outcome}): {t.message}
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
      const data = await loadPostPage(c, c.req.param('postId'))
      return c.html(
        <Layout title="Post" member={member} csrfToken={csrfToken} current="calendar">
          <PostDetail c={c} data={data} />
          <ClientScript page="notes" />
        </Layout>,
      )
    }),
  )

  const act = (path: string, run: (c: PageContext, postId: string) => Promise<unknown>, done: string) =>
    app.post(`/posts/:postId/${path}`, (c) =>
      orNotFound(c, async () => {
        const refused = requirePermission(c, 'publish')
        if (refused) return refused
        const postId = c.req.param('postId')
        const page = workspacePage(c.get('member'), `/posts/${postId}`)
        try {
          await assertPostWritable(c.var.deps.db, dashboardCaller(c), postId)
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
    async (c, id) => {
      const form = await c.req.parseBody()
      const only = typeof form.targetId === 'string' ? [form.targetId] : undefined
      await retryFailedTargets(c.var.deps, dashboardCaller(c), id, { only })
    },
    'Publishing again.',
  )
  act('publish', (c, id) => publishPostNow(c.var.deps, dashboardCaller(c), id), 'Publishing now.')

  app.post('/posts/:postId/delete', (c) =>
    orNotFound(c, async () => {
      const refused = requirePermission(c, 'write')
      if (refused) return refused
      const { member, csrfToken } = frame(c)
      const postId = c.req.param('postId')
      await assertPostWritable(c.var.deps.db, dashboardCaller(c), postId)
      const form = await c.req.parseBody()
      if (form.fromNetworks !== 'true') {
        await deletePost(c.var.deps, dashboardCaller(c), postId)
        return back(c, workspacePage(member, '/calendar'), { notice: 'Post deleted.' })
      }
      const result = await deletePostFromNetworks(c.var.deps, dashboardCaller(c), postId)
      return c.html(
        <Layout title="Post deleted" member={member} csrfToken={csrfToken} current="calendar">
          <DeletionResult c={c} result={result} />
        </Layout>,
      )
    }),
  )
}
