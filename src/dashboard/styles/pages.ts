/**
 * The other pages' styles at every width (accounts, media, queue, settings, sign-in, invitation,
 * agent consent), on the components of ./components (buttons and fields are already `--touch` high,
 * `table.cards-on-phone` turns into one card per row on a phone): account cards, the media grid,
 * the connect and filter forms, the row actions of the settings tables.
 */
export const PAGES_CSS = `
main h1, main h2 { overflow-wrap: anywhere; }
.lead { color: var(--color-text-muted); }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(8rem, 1fr)); gap: var(--space-2) var(--space-4); margin: var(--space-3) 0; }
.facts dt { font-size: var(--text-xs); font-weight: 600; color: var(--color-text-muted); text-transform: uppercase; letter-spacing: .04em; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.card-actions, .row-actions { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; }
.card-actions { margin-top: auto; padding-top: var(--space-3); }
.card-actions form, .row-actions form, .card-actions button { margin: 0; }
.action-link { display: inline-flex; align-items: center; min-height: var(--touch); padding: 0 var(--space-3); border-radius: var(--radius-md); font-weight: 600; font-size: var(--text-sm); }
.action-link:hover { background: var(--color-accent-soft); }
.row-form { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; }
.row-form select { width: auto; min-width: 8rem; }
/* A list or table under a form: a gap below the form's button. */
main form + table, main form + .table-scroll { margin-top: var(--space-5); }
/* A notice that shows something once (a new token, secret, link or invitation): heading, text, then the value, stacked. */
section.notice { flex-direction: column; align-items: stretch; gap: var(--space-1); }
section.notice > div { min-width: 0; }
.notice h2 { margin: 0 0 var(--space-1); font-size: var(--text-lg); }
.notice p:last-child { margin-bottom: 0; }
.secret:has(input) { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; }
.secret input { flex: 1 1 16rem; min-width: 0; max-width: none; font-family: var(--font-mono); }
.inline-check { display: flex; align-items: center; gap: var(--space-2); min-height: var(--touch); font-weight: 400; margin: 0; }

/* Accounts: the connect form, then one card per account. */
.connect-form { display: flex; flex-wrap: wrap; gap: var(--space-3); align-items: flex-end; padding: var(--space-4); margin: 0 0 var(--space-5); background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg); box-shadow: var(--shadow-1); }
.connect-field { flex: 1 1 14rem; min-width: 0; display: flex; flex-direction: column; gap: var(--space-1); }
.connect-field label { margin: 0; font-weight: 600; font-size: var(--text-sm); }
.account-cards, .media-grid { list-style: none; padding: 0; margin: var(--space-4) 0; display: grid; gap: var(--space-4); grid-template-columns: repeat(auto-fill, minmax(min(100%, 17rem), 1fr)); }
.account-card, .media-card { display: flex; flex-direction: column; min-width: 0; padding: var(--space-4); color: var(--color-text); background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg); box-shadow: var(--shadow-1); }
.account-head { display: flex; flex-wrap: wrap; gap: var(--space-2) var(--space-3); align-items: center; }
.account-name { flex: 1 1 9rem; min-width: 0; font-weight: 700; font-size: var(--text-lg); overflow-wrap: anywhere; }
.account-network { margin: var(--space-2) 0 0; color: var(--color-text-muted); font-size: var(--text-sm); }
.account-reason { margin: var(--space-2) 0 0; color: var(--color-danger); font-size: var(--text-sm); }

/* Media: a grid of square thumbnails, details under each. */
.media-grid { grid-template-columns: repeat(auto-fill, minmax(min(100%, 10.5rem), 1fr)); gap: var(--space-3); }
.media-grid > .media-card { padding: 0; overflow: hidden; }
.media-grid > .media-card > img, .media-placeholder { display: block; width: 100%; height: auto; aspect-ratio: 1; object-fit: cover; border-radius: 0; background: var(--color-surface-2); }
.media-placeholder { display: grid; place-items: center; color: var(--color-text-muted); text-transform: uppercase; font-weight: 700; }
.media-card > :not(img):not(.media-placeholder) { margin-left: var(--space-3); margin-right: var(--space-3); }
.media-card .facts { grid-template-columns: minmax(0, 1fr); gap: 0; }
.media-card .facts dd + dt { margin-top: var(--space-2); }
.media-card .action-link { padding: 0; }
.media-card .facts code { font-size: var(--text-xs); }
.media-card .asset-editor { margin-bottom: var(--space-3); }
.media-card .asset-editor summary { display: flex; align-items: center; min-height: var(--touch); cursor: pointer; font-weight: 600; color: var(--color-accent); }
.filter-form { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: flex-end; margin: 0 0 var(--space-4); }
.filter-form label { margin: 0; flex-basis: 100%; font-weight: 600; font-size: var(--text-sm); }
.filter-form select { flex: 1 1 12rem; width: auto; max-width: 24rem; }
main > .upload { max-width: 48rem; padding: var(--space-4); margin: 0 0 var(--space-4); background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg); }
main > .upload input { max-width: 100%; min-height: var(--touch); }
main > .upload progress { width: 100%; }

/* Settings and queue */
.endpoint-url { font-size: var(--text-lg); font-family: var(--font-mono); }
.secret { overflow-wrap: anywhere; }
.queue-form { max-width: 48rem; }
table.cards-on-phone caption { text-align: left; font-weight: 700; padding-bottom: var(--space-2); color: var(--color-text); }
.slot-table select, .slot-table input[type=time] { max-width: 14rem; }
.check-cell label { display: inline-flex; align-items: center; min-height: var(--touch); margin: 0 0 0 var(--space-2); font-weight: 400; }
.check-cell { white-space: nowrap; }
table.cards-on-phone td.check-cell { display: flex; align-items: center; }
@media (max-width: 639.98px) {
  .slot-table select, .slot-table input[type=time] { max-width: none; }
  table.cards-on-phone caption { display: block; }
  table.cards-on-phone td:empty { display: none; }
}
.activity-filters { display: flex; flex-wrap: wrap; gap: var(--space-3); align-items: end; margin: var(--space-3) 0; }
.activity-filters label { display: grid; gap: 2px; font-size: var(--text-sm); font-weight: 600; }
.activity-filters input, .activity-filters select { min-height: var(--touch); width: auto; max-width: 14rem; }
.activity-filters > button { margin-top: 0; }
.activity-log td { overflow-wrap: anywhere; }
.pager { display: flex; gap: var(--space-4); margin: var(--space-3) 0; }
.pager a { display: inline-flex; align-items: center; min-height: var(--touch); }
@media (max-width: 40rem) {
  .activity-filters { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .activity-filters input, .activity-filters select { width: 100%; max-width: none; }
}
.review-tabs { margin: var(--space-3) 0 var(--space-4); }
.review-list { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--space-3); }
.review-item { display: grid; gap: var(--space-2); padding: var(--space-4); background: var(--color-surface); border: 1px solid var(--color-border);
  border-left: 4px solid var(--status-in-review); border-radius: var(--radius-lg); box-shadow: var(--shadow-1); color: var(--color-text); }
.review-link { font-weight: 600; color: var(--color-text); overflow-wrap: anywhere; min-height: var(--touch); display: flex; align-items: center; }
.review-meta { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2); }
.review-item:has(.badge-changes_requested) { border-left-color: var(--status-changes-requested); }
.review-item:has(.badge-approved) { border-left-color: var(--status-approved); }
.review-who, .review-comment { margin: 0; font-size: var(--text-sm); color: var(--color-text-muted); }
.review-comment { font-style: italic; }

/* Notifications: one card each, the unread ones marked by a bar and a dot. */
.notifications { list-style: none; margin: 0 0 var(--space-4); padding: 0; display: grid; gap: var(--space-2); }
.notification { padding: var(--space-3) var(--space-4); background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg); }
.notification-unread { border-left: 4px solid var(--color-accent); background: color-mix(in srgb, var(--color-accent-soft) 45%, var(--color-surface)); }
.notification form { display: grid; gap: var(--space-1); margin: 0; }
.notification p { margin: 0; overflow-wrap: anywhere; }
.notification-title { display: flex; align-items: baseline; gap: var(--space-2); }
.notification-unread .notification-title::before { content: ""; flex: none; width: .5rem; height: .5rem; border-radius: 50%; background: var(--color-accent); transform: translateY(-.1em); }
.notification .muted { font-size: var(--text-sm); }
.notification .actions { margin: var(--space-1) 0 0; }

/* The client review page (/review/{token}): one readable column, each post's decisions apart from its previews. */
main.review { max-width: 52rem; margin: 0 auto; }
.review-decisions { display: grid; gap: var(--space-3); margin-top: var(--space-4); padding-top: var(--space-4); border-top: 1px solid var(--color-border); }
.review-decisions form { margin: 0; }
.review-decisions .field { margin-bottom: var(--space-2); max-width: none; }
.review-decisions form > button { margin-top: 0; }
`
