/**
 * The post page's comments: per published target, its threads (a comment and the replies under it,
 * oldest first), each with the inbox's actions (reply with the network's counter, like, hide, delete)
 * posting to the same `/inbox/{id}/{action}` addresses and coming back here. Comment text is a
 * stranger's: text nodes only.
 */
import type { PostRecord, TargetRecord } from '../../services/posts/record'
import { ClientScript } from '../assets/client-assets'
import { NetworkMark, networkName } from '../ui'
import { type ActionsProps, CommentButtons, ReplyForm } from './inbox/actions'
import { type InboxComment, inboxRules } from './inbox/data'
import { Author, Avatar, StateBadge, When } from './inbox/parts'

export interface PostCommentsProps {
  post: PostRecord
  comments: InboxComment[]
  csrfToken: string
  timeZone: string
  /** The inbox's address (`/app/w/{id}/inbox`). */
  inboxUrl: string
  /** This post page's address, to come back to after an action. */
  returnTo: string
  /** "@alice on Microblog network". */
  label(t: TargetRecord): string
}

interface Thread {
  top: InboxComment
  replies: InboxComment[]
}

const oldestFirst = (a: InboxComment, b: InboxComment) => a.createdAt.localeCompare(b.createdAt)

/** The threads of a target's comments: each top comment with every reply under it (however deep). */
export function threadsOf(comments: InboxComment[]): Thread[] {
  const byId = new Map(comments.map((c) => [c.id, c]))
  const rootOf = (c: InboxComment): InboxComment => {
    let at = c
    for (let i = 0; i < 50 && at.parentId && byId.has(at.parentId); i++) at = byId.get(at.parentId) as InboxComment
    return at
  }
  const threads = new Map<string, Thread>()
  for (const c of [...comments].sort(oldestFirst)) {
    const root = rootOf(c)
    const thread = threads.get(root.id) ?? { top: root, replies: [] }
    if (c.id !== root.id) thread.replies.push(c)
    threads.set(root.id, thread)
  }
  return [...threads.values()]
}

function Comment({ c, p }: { c: InboxComment; p: PostCommentsProps }) {
  const actions: ActionsProps = {
    comment: c,
    csrfToken: p.csrfToken,
    actionUrl: (a) => `${p.inboxUrl}/${c.id}/${a}`,
    returnTo: p.returnTo,
    compact: true,
  }
  const canReply = !c.gone && !c.fromAccount && inboxRules(c.platform).reply
  return (
    <article class="comment" id={`comment-${c.id}`}>
      <p class="comment-head">
        <Avatar name={c.author.name} size="small" />
        <Author comment={c} />
        <When at={c.createdAt} timeZone={p.timeZone} />
        <StateBadge comment={c} />
        <a href={`${p.inboxUrl}/${c.id}`}>Open in inbox</a>
      </p>
      <p class="inbox-text">{c.text}</p>
      <div class="comment-actions">
        {canReply ? (
          <details class="comment-reply">
            <summary class="btn btn-secondary">Reply</summary>
            <ReplyForm p={actions} />
          </details>
        ) : null}
        <CommentButtons p={actions} />
      </div>
    </article>
  )
}

function TargetComments({ t, p }: { t: TargetRecord; p: PostCommentsProps }) {
  const comments = p.comments.filter((c) => c.targetId === t.id)
  const threads = threadsOf(comments)
  return (
    <div class="post-comments-target">
      <h3>
        <NetworkMark platform={t.platform} size="small" />
        {p.label(t)}
      </h3>
      {threads.length === 0 ? (
        <p class="muted">No comments yet.</p>
      ) : (
        <ul class="comment-threads">
          {threads.map((th) => (
            <li>
              <Comment c={th.top} p={p} />
              {th.replies.length > 0 ? (
                <ul class="comment-replies" aria-label={`Replies to ${th.top.author.name}`}>
                  {th.replies.map((r) => (
                    <li>
                      <Comment c={r} p={p} />
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** The comments section: the published targets whose network has comments; nothing before publishing. */
export function PostComments(p: PostCommentsProps) {
  const targets = p.post.targets.filter((t) => t.platformPostId !== null && inboxRules(t.platform).comments)
  if (targets.length === 0) return null
  return (
    <section class="post-section post-comments" aria-labelledby="post-comments-title">
      <h2 id="post-comments-title">Comments</h2>
      {targets.map((t) => (
        <TargetComments t={t} p={p} />
      ))}
      {p.post.targets.some((t) => t.platformPostId !== null && !inboxRules(t.platform).comments) ? (
        <p class="muted">
          {p.post.targets
            .filter((t) => t.platformPostId !== null && !inboxRules(t.platform).comments)
            .map((t) => networkName(t.platform))
            .join(', ')}{' '}
          does not let apps read comments.
        </p>
      ) : null}
      <ClientScript page="inbox" />
    </section>
  )
}
