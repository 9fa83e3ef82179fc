/**
 * The built-in simulated network of `SANDBOX` accounts (docs/decisions.md, "Sandbox accounts"). It
 * behaves like a network: it enforces the platform's registry rules again at publish time,
 * fails as the account's fail mode says, makes each post exactly once per idempotency key,
 * chains thread parts as replies, posts (or refuses) a first comment, answers with a permalink
 * to its own page (`GET /sandbox/posts/{id}`), and reports deterministic insights.
 */
import type { SandboxStore } from '../../domain/sandbox-posts'
import type { PlatformId } from '../../domain/vocabulary'
import { rulesFor } from '../../domain/rules/index'
import type {
  Board,
  BoardsInput,
  DeleteInput,
  InsightsInput,
  NetworkAdapter,
  PendingInput,
  PublishInput,
  PublishProgress,
  PublishResult,
} from '../adapter'
import { sandboxBoards, sandboxDestinations } from './boards'
import { refusal } from './checks'
import { createSandboxInbox, inboxView } from './inbox'
import { reportedFigures, sandboxInsights, sandboxPostFigures } from './insights'
import { headOptions } from './options'

export interface SandboxAdapterOptions {
  store: SandboxStore
  /**
   * Origin of this service as users reach it; permalinks are `{permalinkBase}/sandbox/posts/{id}`.
   * A function when it is known only once the server listens (`npm start` on a free port).
   */
  permalinkBase: string | (() => string)
  /** Comments and posts per listing page (the network's page size); 50 unless a test pages smaller. */
  pageSize?: number
}

/**
 * One adapter for every platform id: publishing reads the platform from the content. Insights
 * name no platform (`InsightsInput`), so `forPlatform` gives the view one platform's accounts
 * get, with only the endpoints that platform's network has (delete, boards).
 */
export interface SandboxAdapter extends NetworkAdapter {
  forPlatform(platform: PlatformId): NetworkAdapter
}

/** A comment starting with this is refused, so tests can see that a refused comment is a warning, not a failure. */
export const REFUSED_COMMENT_PREFIX = 'REFUSE'

/** What one publish call has posted so far, saved after every post. */
interface Session {
  input: PublishInput
  headId: string
  progress: PublishProgress
}

export function createSandboxAdapter(options: SandboxAdapterOptions): SandboxAdapter {
  const { store } = options
  const base = () =>
    (typeof options.permalinkBase === 'function' ? options.permalinkBase() : options.permalinkBase).replace(/\/+$/, '')
  const permalink = (id: string) => `${base()}/sandbox/posts/${encodeURIComponent(id)}`

  async function save(session: Session, step: Partial<PublishProgress>): Promise<void> {
    session.progress = { ...session.progress, ...step }
    await session.input.saveProgress(session.progress)
  }

  async function publish(input: PublishInput): Promise<PublishResult> {
    const { content } = input
    const boards = rulesFor(content.platform).options.pinboardNetBoards ? sandboxBoards(input.accountId) : []
    const refused = refusal(input, boards)
    if (refused) return refused

    const headId = input.progress.headId ?? (await postHead(input, boards))
    const session: Session = { input, headId, progress: { ...input.progress } }
    if (input.progress.headId === undefined) await save(session, { headId, headPermalink: permalink(headId) })
    await postThreadParts(session)
    const warnings = await postFirstComment(session)
    return {
      status: 'published',
      platformPostId: headId,
      permalink: permalink(headId),
      ...(warnings.length > 0 ? { warnings } : {}),
    }
  }

  /** The head post, or the one this idempotency key already made; returns its id. */
  async function postHead(input: PublishInput, boards: Board[]): Promise<string> {
    const { content } = input
    const head = await store.insertOrGet({
      accountId: input.accountId,
      platform: content.platform,
      idempotencyKey: input.idempotencyKey,
      replyToId: null,
      kind: 'post',
      text: content.text,
      media: content.media.map((m) => ({ url: m.url, type: m.type })),
      options: headOptions(content, boards, input.accountId),
    })
    return head.id
  }

  /** Each part answers the one before (the first answers the head); parts already out are never posted again. */
  async function postThreadParts(session: Session): Promise<void> {
    const { input } = session
    const parts = rulesFor(input.content.platform).threadModel ? input.content.threadParts : []
    const partIds = [...(session.progress.partIds ?? [])]
    for (const [i, text] of parts.entries()) {
      if (i < partIds.length) continue
      const part = await store.insertOrGet({
        accountId: input.accountId,
        platform: input.content.platform,
        idempotencyKey: `${input.idempotencyKey}:part:${i}`,
        replyToId: partIds[i - 1] ?? session.headId,
        kind: 'part',
        text,
        media: [],
        options: {},
      })
      partIds.push(part.id)
      await save(session, { partIds: [...partIds] })
    }
  }

  /** The first comment where the registry takes one (the photo network, never on a story); a refusal is a warning. */
  async function postFirstComment(session: Session): Promise<string[]> {
    const { input } = session
    const comment = input.content.firstComment ?? ''
    const rule = rulesFor(input.content.platform).options.firstComment
    if (comment.trim() === '' || !rule?.formats.includes(input.content.type)) return []
    if (session.progress.firstComment === 'posted') return []
    if (session.progress.firstComment === 'refused' || comment.startsWith(REFUSED_COMMENT_PREFIX)) {
      if (session.progress.firstComment !== 'refused') await save(session, { firstComment: 'refused' })
      return [
        `${input.content.platform} refused the first comment (the sandbox refuses comments starting with "${REFUSED_COMMENT_PREFIX}"); the post is published without it.`,
      ]
    }
    await store.insertOrGet({
      accountId: input.accountId,
      platform: input.content.platform,
      idempotencyKey: `${input.idempotencyKey}:comment`,
      replyToId: session.headId,
      kind: 'comment',
      text: comment,
      media: [],
      options: {},
    })
    await save(session, { firstComment: 'posted' })
    return []
  }

  /** The sandbox never answers `pending`; this confirms whether a publish whose outcome was lost exists. */
  async function checkStatus(input: PendingInput): Promise<PublishResult> {
    const head = await store.findByKey(input.accountId, input.idempotencyKey)
    if (head) return { status: 'published', platformPostId: head.id, permalink: permalink(head.id) }
    if (input.unconfirmed) return { status: 'absent' }
    return {
      status: 'failed',
      kind: 'rejected',
      message: 'The sandbox network has no publish in progress for this target.',
    }
  }

  /** Idempotent: a post already gone is not an error. */
  async function deletePost(input: DeleteInput): Promise<void> {
    const post = await store.get(input.platformPostId)
    if (!post) return
    if (!rulesFor(post.platform).deleteSupported) throw new Error(`${post.platform} has no delete endpoint.`)
    await store.delete(post.id)
  }

  const listBoards: NonNullable<NetworkAdapter['listBoards']> = async (input) => sandboxBoards(input.accountId)

  const commentCounts = (input: InsightsInput) => store.comments.countsFor(input.posts.map((p) => p.platformPostId))

  /** Without a platform view, the platform is read from the posts the network made. */
  async function fetchInsights(input: InsightsInput) {
    for (const post of input.posts) {
      const found = await store.get(post.platformPostId)
      if (found) return sandboxInsights(found.platform, input, await commentCounts(input))
    }
    return sandboxInsights(null, input)
  }

  /** A head post's figures as its platform's network reports them, for the posts listing. */
  async function figures(accountId: string, post: { id: string; createdAt: Date }, now: Date) {
    const found = await store.get(post.id)
    const comments = (await store.comments.countsFor([post.id])).get(post.id) ?? 0
    const all = sandboxPostFigures(accountId, { platformPostId: post.id, publishedAt: post.createdAt, comments }, now)
    return reportedFigures(found?.platform ?? null, all)
  }

  const inbox = createSandboxInbox({
    store,
    comments: store.comments,
    permalink,
    figures,
    pageSize: options.pageSize ?? 50,
  })

  return {
    publish,
    checkStatus,
    fetchInsights,
    deletePost,
    listBoards,
    ...inbox,
    forPlatform(platform) {
      const rules = rulesFor(platform)
      return {
        publish,
        checkStatus,
        fetchInsights: async (input) => sandboxInsights(platform, input, await commentCounts(input)),
        ...inboxView(inbox, rules),
        ...(rules.deleteSupported ? { deletePost } : {}),
        ...(rules.options.pinboardNetBoards ? { listBoards } : {}),
        ...(rules.options.destination
          ? { listDestinations: async (input: BoardsInput) => sandboxDestinations(platform, input.accountId) }
          : {}),
      }
    },
  }
}
