/**
 * The comments part of a sandbox post's page: visitors' comments with the replies under them (the
 * account's own replies marked), and the form to add one. Every value goes through `hono/html`,
 * which escapes it.
 */
import { html } from 'hono/html'
import type { HtmlEscapedString } from 'hono/utils/html'
import { SANDBOX_COMMENT_LIMITS, type SandboxComment } from '../../domain/sandbox-comments'

type Html = HtmlEscapedString | Promise<HtmlEscapedString>

/** What the visitor wrote, and why it was refused (null on a fresh page). */
export interface CommentForm {
  name: string
  text: string
  error: string | null
}

const stamp = (at: Date) =>
  html`<time datetime="${at.toISOString()}">${at.toISOString().replace('T', ' ').slice(0, 16)} UTC</time>`

function byline(comment: SandboxComment, username: string | null): Html {
  if (comment.fromAccount)
    return html`<b>${username === null ? comment.authorName : `@${username}`}</b> <span class="badge">author</span>`
  return html`<b>${comment.authorName}</b>`
}

function item(comment: SandboxComment, children: Map<string, SandboxComment[]>, username: string | null): Html {
  const replies = children.get(comment.id) ?? []
  return html`<li id="${comment.id}"${comment.fromAccount ? html` class="from-account"` : ''}><p class="meta">${byline(comment, username)} · ${stamp(comment.createdAt)}</p><p class="text">${comment.text}</p>${
    replies.length > 0 ? html`<ul>${replies.map((r) => item(r, children, username))}</ul>` : ''
  }</li>`
}

/** The visible comments as threads, oldest first. */
export function conversationSection(conversation: SandboxComment[], username: string | null): Html {
  const children = new Map<string, SandboxComment[]>()
  const roots: SandboxComment[] = []
  for (const comment of conversation) {
    if (comment.replyToId === null) roots.push(comment)
    else children.set(comment.replyToId, [...(children.get(comment.replyToId) ?? []), comment])
  }
  return html`<section id="comments"><h2>Comments (${conversation.length})</h2>${
    roots.length > 0
      ? html`<ul>${roots.map((c) => item(c, children, username))}</ul>`
      : html`<p class="meta">No comments yet.</p>`
  }</section>`
}

export function commentForm(postId: string, form: CommentForm): Html {
  const { name, text } = SANDBOX_COMMENT_LIMITS
  return html`<section><h2>Add a comment</h2>
${form.error ? html`<p class="error" role="alert">${form.error}</p>` : ''}
<form method="post" action="/sandbox/posts/${encodeURIComponent(postId)}/comments">
<label for="name">Name</label><input id="name" name="name" required maxlength="${name}" value="${form.name}">
<label for="text">Comment</label><textarea id="text" name="text" required maxlength="${text}" rows="3">${form.text}</textarea>
<button type="submit">Comment</button>
</form></section>`
}
