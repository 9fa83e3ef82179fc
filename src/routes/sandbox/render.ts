/**
 * The simulated network's post page: one small self-contained HTML document (no external
 * assets). Every interpolated value goes through `hono/html`, which escapes it; URLs are used
 * as `src`/`href` only when they are http(s).
 */
import { html, raw } from 'hono/html'
import type { HtmlEscapedString } from 'hono/utils/html'
import type { SandboxMedia, SandboxPost, SandboxThread } from '../../domain/sandbox-posts'
import { conversationSection, commentForm, type CommentForm } from './render-comments'

export type { CommentForm }

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>

const STYLE = `
body{margin:0;background:#f4f4f5;font:16px/1.5 system-ui,sans-serif;color:#18181b}
main{max-width:40rem;margin:2rem auto;padding:0 1rem}
article,section{background:#fff;border:1px solid #e4e4e7;border-radius:.75rem;padding:1rem 1.25rem;margin-bottom:1rem}
.meta{color:#71717a;font-size:.875rem;margin:0 0 .5rem}
.badge{background:#18181b;color:#fff;border-radius:.25rem;padding:0 .4rem;font-size:.8rem}
.text{white-space:pre-wrap;overflow-wrap:anywhere}
h1{font-size:1.25rem;margin:.25rem 0}h2{font-size:1rem;margin:0 0 .5rem}
img,video{display:block;max-width:100%;border-radius:.5rem;margin:.5rem 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;font-size:.875rem;margin:.75rem 0 0}
dt{color:#71717a}dd{margin:0;overflow-wrap:anywhere}
ol,ul{padding-left:1.25rem;margin:0}li+li{margin-top:.75rem}
footer{color:#71717a;font-size:.8rem;text-align:center}
ul ul{margin-top:.5rem;border-left:2px solid #e4e4e7;padding-left:.75rem;list-style:none}
label{display:block;font-size:.875rem;margin:.5rem 0 .25rem}
input,textarea{width:100%;box-sizing:border-box;font:inherit;padding:.4rem;border:1px solid #d4d4d8;border-radius:.375rem}
button{margin-top:.5rem;font:inherit;padding:.4rem 1rem;border:0;border-radius:.375rem;background:#18181b;color:#fff}
.error{color:#b91c1c}`

const OPTION_LABELS: Record<string, string> = {
  format: 'Format',
  title: 'Title',
  board: 'Board',
  destination: 'Destination',
  linkUrl: 'Link',
  replyToMicropostId: 'In reply to',
  quoteMicropostId: 'Quoting',
  privacyLevel: 'Privacy',
  switches: 'Settings on',
}

const isHttpUrl = (value: string) => /^https?:\/\//i.test(value)

function mediaItem(item: SandboxMedia): Html {
  if (!isHttpUrl(item.url)) return html`<p class="meta">${item.type}: ${item.url}</p>`
  return item.type === 'VIDEO'
    ? html`<video src="${item.url}" controls preload="metadata"></video>`
    : html`<img src="${item.url}" alt="" loading="lazy">`
}

/** An option value in words: a board as "name (id)", a list joined, a link as a link. */
function optionValue(key: string, value: unknown): Html | string {
  if (key === 'linkUrl' && typeof value === 'string' && isHttpUrl(value))
    return html`<a href="${value}" rel="nofollow noopener">${value}</a>`
  if (Array.isArray(value)) return value.map(String).join(', ')
  if (typeof value === 'object' && value !== null && 'name' in value && 'id' in value)
    return `${String(value.name)} (${String(value.id)})`
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/**
 * The options in a fixed order (stored JSON keeps none); the title is the heading instead. A post
 * without media has no format to show (a text post is not an image post, whatever it was stored with).
 */
function options(post: SandboxPost): Html | string {
  const order = (key: string) => {
    const at = Object.keys(OPTION_LABELS).indexOf(key)
    return at === -1 ? Number.MAX_SAFE_INTEGER : at
  }
  const entries = Object.entries(post.options)
    .filter(([key]) => key !== 'title' && !(key === 'format' && post.media.length === 0))
    .sort(([a], [b]) => order(a) - order(b))
  if (entries.length === 0) return ''
  return html`<dl>${entries.map(([key, value]) => html`<dt>${OPTION_LABELS[key] ?? key}</dt><dd>${optionValue(key, value)}</dd>`)}</dl>`
}

const when = (post: SandboxPost) =>
  html`<time datetime="${post.createdAt.toISOString()}">${post.createdAt.toISOString().replace('T', ' ').slice(0, 16)} UTC</time>`

/** The author as a network names one: the account's username, with its id. */
const author = (post: SandboxPost, username: string | null) =>
  username === null
    ? html`account <b>${post.accountId}</b>`
    : html`<b>@${username}</b> <span title="account id">(${post.accountId})</span>`

export function renderSandboxPost(
  { post, parts, comments, conversation, username }: SandboxThread,
  form: CommentForm = { name: '', text: '', error: null },
): Html {
  const title = typeof post.options.title === 'string' ? post.options.title : null
  const kind = post.kind === 'post' ? 'post' : post.kind === 'part' ? 'thread part' : 'comment'
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${post.platform} ${kind} ${post.id}</title><style>${raw(STYLE)}</style></head>
<body><main>
<article>
<p class="meta"><span class="badge">${post.platform}</span> ${kind} by ${author(post, username)} · ${when(post)}</p>
${title ? html`<h1>${title}</h1>` : ''}
<p class="text">${post.text}</p>
${post.media.map(mediaItem)}
${options(post)}
</article>
${
  parts.length > 0
    ? html`<section><h2>Thread (${parts.length} more)</h2><ol>${parts.map((p) => html`<li><p class="text">${p.text}</p><p class="meta">${when(p)}</p></li>`)}</ol></section>`
    : ''
}
${
  comments.length > 0
    ? html`<section><h2>First comment</h2><ul>${comments.map((p) => html`<li><p class="text">${p.text}</p><p class="meta">by the author · ${when(p)}</p></li>`)}</ul></section>`
    : ''
}
${conversationSection(conversation, username)}
${commentForm(post.id, form)}
<footer>Shown by the sandbox network of this service: nothing here was published on a real network.</footer>
</main></body>
</html>`
}
