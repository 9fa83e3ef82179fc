/**
 * The inbox's styles (and the post page's comment threads): filters, the list and the reading pane
 * side by side from 60rem, one column below (the list, or the opened comment with a way back), state
 * badges, the conversation as bubbles, the reply box with its counter.
 */
const PAGE = `
.inbox { display: grid; gap: var(--space-4); color: var(--color-text); }
.inbox-header { display: flex; flex-wrap: wrap; align-items: end; justify-content: space-between; gap: var(--space-3); }
.inbox-header h1 { margin: 0; display: flex; align-items: center; gap: var(--space-3); }
.inbox-unread { font-size: var(--text-sm); font-weight: 600; color: var(--color-accent); background: var(--color-accent-soft);
  border-radius: var(--radius-full); padding: var(--space-1) var(--space-3); }
.inbox-filters { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: end; margin: 0; }
.inbox-filter { display: grid; gap: 2px; min-width: 0; }
.inbox-filter label { font-size: var(--text-xs); font-weight: 600; color: var(--color-text-muted); text-transform: uppercase; letter-spacing: .04em; }
.inbox-filter select { min-height: var(--touch); max-width: 14rem; }
.inbox-filters.is-live .inbox-apply { display: none; }
.inbox-panes { display: grid; gap: var(--space-4); grid-template-columns: minmax(0, 1fr); align-items: start; }
.inbox-list, .inbox-pane { background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg);
  box-shadow: var(--shadow-1); min-width: 0; }
.inbox-pane { padding: var(--space-5); }
.inbox-pane-empty { display: grid; place-items: center; min-height: 16rem; color: var(--color-text-muted); text-align: center; }
.inbox-empty { padding: var(--space-6) var(--space-5); text-align: center; color: var(--color-text-muted); }
.inbox-empty h2 { margin: 0 0 var(--space-2); font-size: var(--text-lg); color: var(--color-text); }
.inbox-more { margin: 0; padding: var(--space-3); text-align: center; border-top: 1px solid var(--color-border); }
.inbox-back { display: none; }
@media (min-width: 60rem) {
  .inbox-panes { grid-template-columns: minmax(20rem, 27rem) minmax(0, 1fr); }
  .inbox-list { max-height: calc(100dvh - 11rem); overflow-y: auto; position: sticky; top: var(--space-4); }
}
@media (max-width: 59.99rem) {
  .inbox.has-open .inbox-list, .inbox.has-open .inbox-filters, .inbox:not(.has-open) .inbox-pane { display: none; }
  .inbox-back { display: inline-flex; align-items: center; min-height: var(--touch); font-weight: 600; margin-bottom: var(--space-2); }
  .inbox-pane { padding: var(--space-4); }
  .inbox-filters { width: 100%; display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .inbox-filter select { max-width: none; width: 100%; }
}
`

const MENU_BADGE = `
.menu > summary { position: relative; }
.menu > summary .nav-count { position: absolute; top: -6px; right: -6px; width: auto; height: auto; overflow: visible; clip: auto;
  min-width: 1.25rem; line-height: 1.25rem; padding: 0 .3rem; box-shadow: 0 0 0 2px var(--color-surface); }
`

const LIST = `
.inbox-items { list-style: none; margin: 0; padding: 0; }
.inbox-item + .inbox-item { border-top: 1px solid var(--color-border); }
.inbox-item a { display: flex; gap: var(--space-3); padding: var(--space-3) var(--space-4); color: var(--color-text);
  text-decoration: none; position: relative; min-width: 0; }
.inbox-item a:hover { background: var(--color-surface-2); }
.inbox-item.is-open a { background: var(--color-accent-soft); }
.inbox-item.is-unread a::before { content: ""; position: absolute; left: 6px; top: 50%; width: 6px; height: 6px; margin-top: -3px;
  border-radius: 50%; background: var(--color-accent); }
.inbox-item-body { display: grid; gap: 2px; min-width: 0; flex: 1; }
.inbox-item-head { display: flex; align-items: baseline; justify-content: space-between; gap: var(--space-2); min-width: 0; }
.inbox-item-head .inbox-author { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.inbox-item.is-unread .inbox-author-name { font-weight: 700; }
.inbox-item-text { font-size: var(--text-sm); color: var(--color-text-muted); overflow: hidden; overflow-wrap: anywhere;
  display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; }
.inbox-item.is-unread .inbox-item-text { color: var(--color-text); }
.inbox-item-foot { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2); margin-top: var(--space-1); font-size: var(--text-xs); }
.inbox-time { font-size: var(--text-xs); color: var(--color-text-muted); white-space: nowrap; font-variant-numeric: tabular-nums; }
.inbox-avatar { flex: none; display: inline-grid; place-items: center; width: 2.5rem; height: 2.5rem; border-radius: 50%;
  background: var(--color-surface-2); color: var(--color-text); font-weight: 700; font-size: var(--text-sm); border: 1px solid var(--color-border); }
.inbox-avatar.is-small { width: 1.75rem; height: 1.75rem; font-size: var(--text-xs); }
.inbox-author { display: inline-flex; flex-wrap: wrap; align-items: baseline; gap: var(--space-1) var(--space-2); min-width: 0; }
.inbox-author-name { font-weight: 600; overflow-wrap: anywhere; }
.inbox-author-handle { color: var(--color-text-muted); font-size: var(--text-sm); font-weight: 400; overflow-wrap: anywhere; }
.inbox-you, .inbox-kind { font-size: var(--text-xs); font-weight: 600; padding: 0 var(--space-2); border-radius: var(--radius-full);
  background: var(--color-surface-2); color: var(--color-text-muted); }
.inbox-source { display: inline-flex; align-items: center; gap: var(--space-1); color: var(--color-text-muted); min-width: 0; overflow-wrap: anywhere; }
.inbox-state { display: inline-block; font-size: var(--text-xs); font-weight: 600; padding: 0 var(--space-2); border-radius: var(--radius-full);
  background: var(--color-surface-2); color: var(--color-text-muted); }
.inbox-state-unread { background: var(--color-accent-soft); color: var(--color-accent); }
.inbox-state-replied { background: var(--color-success-soft); color: var(--color-success); }
.inbox-state-hidden { background: var(--color-warning-soft); color: var(--color-warning); }
.inbox-state-gone { background: var(--color-danger-soft); color: var(--color-danger); }
`

const READER = `
.inbox-reader { display: grid; gap: var(--space-4); min-width: 0; }
.inbox-reader-head { display: flex; gap: var(--space-3); align-items: center; }
.inbox-reader-head h2 { margin: 0; font-size: var(--text-lg); }
.inbox-reader-meta { margin: var(--space-1) 0 0; display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-1) var(--space-2);
  font-size: var(--text-sm); color: var(--color-text-muted); }
.inbox-text { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
.inbox-reader-text { font-size: var(--text-lg); line-height: 1.5; }
.inbox-on { margin: 0; font-size: var(--text-sm); color: var(--color-text-muted); overflow-wrap: anywhere; }
.inbox-thread { list-style: none; margin: 0; padding: var(--space-3); display: grid; gap: var(--space-3);
  background: var(--color-surface-2); border-radius: var(--radius-md); }
.inbox-message { display: grid; gap: var(--space-1); max-width: 90%; padding: var(--space-2) var(--space-3); border-radius: var(--radius-md);
  background: var(--color-surface); border: 1px solid var(--color-border); min-width: 0; }
.inbox-message.is-own { justify-self: end; background: var(--color-accent-soft); border-color: transparent; }
.inbox-message.is-current { border-color: var(--color-accent); }
.inbox-message-head { margin: 0; display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2); font-size: var(--text-sm); }
.inbox-reply { display: grid; gap: var(--space-2); margin: 0; }
.inbox-reply-label { font-weight: 600; font-size: var(--text-sm); }
.inbox-reply textarea { width: 100%; min-height: 5rem; }
.inbox-reply-bar { display: flex; align-items: center; justify-content: space-between; gap: var(--space-3); }
.inbox-counter { font-size: var(--text-sm); color: var(--color-text-muted); font-variant-numeric: tabular-nums; }
.inbox-counter.over { color: var(--color-danger); font-weight: 700; }
.inbox-actions { display: flex; flex-wrap: wrap; align-items: start; gap: var(--space-2); }
.inbox-actions form { margin: 0; }
.inbox-actions form > button, .inbox-filters > button, .inbox-delete-panel > button, .inbox-reply-bar > button { margin-top: 0; }
.inbox-liked { display: inline-flex; align-items: center; min-height: var(--touch); padding: 0 var(--space-3); font-size: var(--text-sm);
  font-weight: 600; color: var(--color-success); }
.inbox-delete > summary { list-style: none; cursor: pointer; color: var(--color-danger); }
.inbox-delete > summary::-webkit-details-marker { display: none; }
.inbox-delete-panel { margin-top: var(--space-2); padding: var(--space-3); border-radius: var(--radius-md); background: var(--color-danger-soft);
  display: grid; gap: var(--space-2); justify-items: start; }
.inbox-delete-panel p { margin: 0; font-size: var(--text-sm); }
.inbox-allowed { margin: 0; font-size: var(--text-sm); }
`

const POST_COMMENTS = `
.post-comments { display: grid; gap: var(--space-3); }
.post-comments-target { display: grid; gap: var(--space-2); }
.post-comments-target h3 { display: flex; align-items: center; gap: var(--space-2); }
.comment-threads { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--space-3); }
.comment { display: grid; gap: var(--space-2); padding: var(--space-3); border: 1px solid var(--color-border); border-radius: var(--radius-md);
  background: var(--color-surface); min-width: 0; }
.comment-head { margin: 0; display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2); font-size: var(--text-sm); }
.comment-replies { list-style: none; margin: 0; padding: 0 0 0 var(--space-4); border-left: 2px solid var(--color-border); display: grid; gap: var(--space-2); }
.comment-replies .comment { background: var(--color-surface-2); border-color: transparent; }
.comment .inbox-reply textarea { min-height: 3rem; }
.comment-actions { display: flex; flex-wrap: wrap; align-items: start; gap: var(--space-2); }
.comment-reply > summary { list-style: none; cursor: pointer; }
.comment-reply > summary::-webkit-details-marker { display: none; }
.comment-reply[open] { flex-basis: 100%; display: grid; gap: var(--space-2); }
.comment-reply[open] > summary { justify-self: start; }
`

export const INBOX_CSS = [PAGE, MENU_BADGE, LIST, READER, POST_COMMENTS].join('\n')
