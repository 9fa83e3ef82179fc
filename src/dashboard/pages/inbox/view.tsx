/**
 * The inbox page: filters, the list of comments and mentions (newest first) and the reading pane of
 * the one opened, side by side on a wide screen; on a phone the list, or the opened one with a way
 * back. Everything a stranger wrote is a text node (escaped by hono/jsx).
 */
import type { PlatformId } from '../../../domain/vocabulary'
import type { AccountRecord } from '../../../services/accounts/accounts'
import { ClientScript } from '../../assets/client-assets'
import { networkName } from '../../ui'
import { AllowedNote, type ActionsProps, CommentButtons, ReplyForm } from './actions'
import {
  INBOX_KINDS,
  INBOX_STATES,
  type InboxComment,
  type InboxFilters,
  type InboxPage,
  inboxRules,
  queryOf,
} from './data'
import { Author, Avatar, STATE_LABELS, Source, StateBadge, When } from './parts'

export interface OpenComment {
  comment: InboxComment
  thread: InboxComment[]
  /** The post it is on, when it is one of this workspace's: its page and the start of its caption. */
  post: { url: string; caption: string } | null
}

export interface InboxViewProps {
  page: InboxPage
  filters: InboxFilters
  accounts: AccountRecord[]
  open: OpenComment | null
  timeZone: string
  csrfToken: string
  /** The inbox's address plus a path (`/cmt_1`). */
  url(path?: string): string
}

const accountName = (accounts: AccountRecord[], id: string) =>
  accounts.find((a) => a.id === id)?.username ?? 'a removed account'

function Select(props: { name: string; label: string; value?: string; options: Array<[string, string]> }) {
  return (
    <div class="inbox-filter">
      <label for={`f-${props.name}`}>{props.label}</label>
      <select id={`f-${props.name}`} name={props.name}>
        <option value="">All</option>
        {props.options.map(([v, l]) => (
          <option value={v} selected={props.value === v}>
            {l}
          </option>
        ))}
      </select>
    </div>
  )
}

/** The filters: a GET form (the script applies a change at once; without it, the button does). */
function Filters({ p }: { p: InboxViewProps }) {
  const platforms = [...new Set(p.accounts.map((a) => a.platform))] as PlatformId[]
  return (
    <form method="get" action={p.url()} class="inbox-filters" data-inbox-filters>
      <Select
        name="accountId"
        label="Account"
        value={p.filters.accountId}
        options={p.accounts.map((a) => [a.id, `${a.username} (${networkName(a.platform)})`])}
      />
      <Select
        name="platform"
        label="Network"
        value={p.filters.platform}
        options={platforms.map((x) => [x, networkName(x)])}
      />
      <Select
        name="state"
        label="State"
        value={p.filters.state}
        options={INBOX_STATES.map((s) => [s, STATE_LABELS[s] ?? s])}
      />
      <Select
        name="kind"
        label="Kind"
        value={p.filters.kind}
        options={INBOX_KINDS.map((k) => [k, k === 'comment' ? 'Comments' : 'Mentions'])}
      />
      <button type="submit" class="btn btn-secondary inbox-apply">
        Apply
      </button>
    </form>
  )
}

function ListItem({ c, p }: { c: InboxComment; p: InboxViewProps }) {
  const current = p.open?.comment.id === c.id
  return (
    <li class={`inbox-item${c.state === 'unread' ? ' is-unread' : ''}${current ? ' is-open' : ''}`}>
      <a href={`${p.url(`/${c.id}`)}${queryOf(p.filters, true)}`} aria-current={current ? 'true' : undefined}>
        <Avatar name={c.author.name} />
        <span class="inbox-item-body">
          <span class="inbox-item-head">
            <Author comment={c} />
            <When at={c.createdAt} timeZone={p.timeZone} />
          </span>
          <span class="inbox-item-text">{c.text}</span>
          <span class="inbox-item-foot">
            <Source platform={c.platform} account={accountName(p.accounts, c.accountId)} />
            {c.kind === 'mention' ? <span class="inbox-kind">Mention</span> : null}
            <StateBadge comment={c} />
          </span>
        </span>
      </a>
    </li>
  )
}

function List({ p }: { p: InboxViewProps }) {
  if (p.page.items.length === 0)
    return (
      <div class="inbox-empty">
        <h2>Nothing here</h2>
        <p>
          {queryOf(p.filters)
            ? 'No comment matches these filters.'
            : 'Comments and mentions on your accounts show up here as they arrive.'}
        </p>
      </div>
    )
  const next = p.page.nextCursor ? `${p.url()}${queryOf({ ...p.filters, cursor: p.page.nextCursor }, true)}` : null
  return (
    <>
      <ul class="inbox-items" aria-label="Comments and mentions, newest first">
        {p.page.items.map((c) => (
          <ListItem c={c} p={p} />
        ))}
      </ul>
      {next ? (
        <p class="inbox-more">
          <a class="btn btn-secondary" href={next}>
            Older comments
          </a>
        </p>
      ) : null}
    </>
  )
}

/** The thread around the opened comment: each message, the opened one marked. */
function Thread({ open, p }: { open: OpenComment; p: InboxViewProps }) {
  if (open.thread.length <= 1) return null
  return (
    <ol class="inbox-thread" aria-label="Conversation">
      {open.thread.map((m) => (
        <li class={`inbox-message${m.id === open.comment.id ? ' is-current' : ''}${m.fromAccount ? ' is-own' : ''}`}>
          <p class="inbox-message-head">
            <Avatar name={m.author.name} size="small" />
            <Author comment={m} />
            <When at={m.createdAt} timeZone={p.timeZone} />
          </p>
          <p class="inbox-text">{m.text}</p>
        </li>
      ))}
    </ol>
  )
}

/** The opened comment: who, where, when, the text, its post, the thread and the actions. */
function Reader({ open, p }: { open: OpenComment; p: InboxViewProps }) {
  const c = open.comment
  const here = `${p.url(`/${c.id}`)}${queryOf(p.filters, true)}`
  const actions: ActionsProps = {
    comment: c,
    csrfToken: p.csrfToken,
    actionUrl: (a) => p.url(`/${c.id}/${a}`),
    returnTo: here,
  }
  return (
    <article class="inbox-reader" aria-labelledby="reader-title">
      <a class="inbox-back" href={`${p.url()}${queryOf(p.filters, true)}`}>
        ← All comments
      </a>
      <header class="inbox-reader-head">
        <Avatar name={c.author.name} />
        <div>
          <h2 id="reader-title">
            <Author comment={c} />
          </h2>
          <p class="inbox-reader-meta">
            <Source platform={c.platform} account={accountName(p.accounts, c.accountId)} /> ·{' '}
            <When at={c.createdAt} timeZone={p.timeZone} /> · <StateBadge comment={c} />
          </p>
        </div>
      </header>
      {c.gone ? (
        <p class="problem" role="status">
          {networkName(c.platform)} no longer has this comment (deleted there, or its post was).
        </p>
      ) : null}
      <p class="inbox-text inbox-reader-text">{c.text}</p>
      <p class="inbox-on">
        {open.post ? (
          <>
            {c.kind === 'mention' ? 'Mentioned on ' : 'On '}
            <a href={open.post.url}>{open.post.caption || 'your post'}</a>
          </>
        ) : c.kind === 'mention' ? (
          'A mention of the account'
        ) : (
          'On a post not in this workspace'
        )}
        {c.permalink ? (
          <>
            {' · '}
            <a href={c.permalink} rel="noopener noreferrer" target="_blank">
              Open on {networkName(c.platform)}
            </a>
          </>
        ) : null}
      </p>
      <Thread open={open} p={p} />
      {!c.gone && !c.fromAccount && inboxRules(c.platform).reply ? <ReplyForm p={actions} /> : null}
      <CommentButtons p={actions} />
      <AllowedNote comment={c} />
    </article>
  )
}

/** The whole inbox view (the layout's main region). */
export function InboxView({ p, notice, unread }: { p: InboxViewProps; notice: unknown; unread: number }) {
  return (
    <div class={p.open ? 'inbox has-open' : 'inbox'}>
      <header class="inbox-header">
        <h1>Inbox {unread > 0 ? <span class="inbox-unread">{unread} unread</span> : null}</h1>
        <Filters p={p} />
      </header>
      {notice}
      <div class="inbox-panes">
        <section class="inbox-list" aria-label="Comments">
          <List p={p} />
        </section>
        <section class="inbox-pane" aria-label="Opened comment">
          {p.open ? (
            <Reader open={p.open} p={p} />
          ) : (
            <div class="inbox-pane-empty">
              <p>Open a comment to read it, see its conversation and answer.</p>
            </div>
          )}
        </section>
      </div>
      <ClientScript page="inbox" />
    </div>
  )
}
