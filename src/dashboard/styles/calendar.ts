/**
 * The calendar's own styles: toolbar and filters, the week time grid (hour rows of one height across
 * the week, a day-by-day list on a phone), the month (fixed cells, compact chips; dots on a phone),
 * the list view, and a post coloured by its status (`--status-*`).
 */
const POST = `
.cal-post { position: relative; list-style: none; margin: 0 0 var(--space-1); padding: var(--space-1) var(--space-2);
  border-left: 4px solid var(--cal-status, var(--status-draft)); border-radius: var(--radius-sm);
  background: var(--color-surface); box-shadow: var(--shadow-1); font-size: var(--text-xs); line-height: 1.35; min-width: 0; }
.cal-post.status-draft { --cal-status: var(--status-draft); }
.cal-post.status-scheduled { --cal-status: var(--status-scheduled); }
.cal-post.status-publishing { --cal-status: var(--status-publishing); }
.cal-post.status-published { --cal-status: var(--status-published); }
.cal-post.status-in_review { --cal-status: var(--status-in-review); }
.cal-post.status-approved { --cal-status: var(--status-approved); }
.cal-post.status-changes_requested { --cal-status: var(--status-changes-requested); border-left-style: double; border-left-width: 5px; }
.cal-post.status-failed, .cal-post.has-failed { --cal-status: var(--status-failed); background: var(--color-danger-soft); }
.cal-post[draggable="true"] { cursor: grab; }
.cal-post.is-dragging { opacity: .5; }
.cal-post-link { display: flex; gap: var(--space-1); min-width: 0; color: var(--color-text); text-decoration: none; }
.cal-post-link:hover .cal-post-text { text-decoration: underline; }
.cal-post-link time { flex: none; font-weight: 700; font-variant-numeric: tabular-nums; }
.cal-post-text { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.cal-post--card .cal-post-text { white-space: normal; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; }
.cal-post-meta { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-1); margin-top: 2px; }
.cal-status { color: var(--cal-status); font-weight: 600; font-size: .6875rem; letter-spacing: .02em; }
.cal-post--chip .cal-post-meta { margin-top: 0; }
.cal-post--chip .cal-status { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.cal-nets { display: inline-flex; gap: 2px; }
.cal-retry { display: inline; }
.cal-retry-button, .cal-post .cal-move summary { margin: 0; padding: 0 var(--space-2); min-height: 1.5rem; border-radius: var(--radius-sm);
  font-size: var(--text-xs); font-weight: 600; cursor: pointer; }
.cal-retry-button { border: 1px solid var(--status-failed); background: var(--status-failed); color: var(--color-surface); }
.cal-move { display: inline-block; }
.cal-move summary { display: inline-flex; align-items: center; list-style: none; border: 1px solid var(--color-border);
  color: var(--color-text-muted); background: var(--color-surface); }
.cal-move summary::-webkit-details-marker { display: none; }
.cal-move[open] > form { position: absolute; z-index: 20; left: 0; top: 100%; width: max(100%, 16rem); padding: var(--space-3);
  background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-md); box-shadow: var(--shadow-3); }
.cal-move form label { margin-top: 0; font-size: var(--text-sm); }
.cal-move form input { width: 100%; min-height: var(--touch); }
.cal-post--chip .cal-retry, .cal-post--chip .cal-move { margin-top: 2px; }
.cal-post--chip .cal-move summary { min-height: 1.25rem; }
`

const PAGE = `
main:has(.cal-page) { max-width: var(--content-width); }
.cal-page { min-width: 0; color: var(--color-text); }
.cal-header { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: var(--space-3); }
.cal-header h1 { margin: var(--space-2) 0; font-size: var(--text-2xl); }
.cal-zone { font-size: var(--text-sm); font-weight: 400; }
.cal-toolbar, .cal-steps, .cal-views, .cal-tabs { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2); }
.cal-steps a, .cal-views a, .cal-tabs a, .cal-new, .cal-pages a { display: inline-flex; align-items: center; min-height: var(--touch);
  padding: 0 var(--space-3); border: 1px solid var(--color-border); border-radius: var(--radius-md); background: var(--color-surface);
  color: var(--color-text); text-decoration: none; font-weight: 600; }
.cal-views { gap: 0; }
.cal-views a { border-radius: 0; margin-left: -1px; }
.cal-views a:first-child { border-radius: var(--radius-md) 0 0 var(--radius-md); }
.cal-views a:last-child { border-radius: 0 var(--radius-md) var(--radius-md) 0; }
.cal-views a[aria-current="page"], .cal-tabs a[aria-current="page"] { background: var(--color-accent); border-color: var(--color-accent); color: var(--color-accent-contrast); }
.cal-new { background: var(--color-accent); border-color: var(--color-accent); color: var(--color-accent-contrast); }
.cal-filters { display: flex; flex-wrap: wrap; align-items: flex-end; gap: var(--space-3); margin: var(--space-3) 0; padding: var(--space-3);
  border: 1px solid var(--color-border); border-radius: var(--radius-md); background: var(--color-surface); }
.cal-filter { flex: 1 1 12rem; min-width: 0; }
.cal-filter label { margin-top: 0; font-size: var(--text-sm); }
.cal-filter select { width: 100%; max-width: none; min-height: var(--touch); }
.cal-filter-actions { display: flex; align-items: center; gap: var(--space-3); }
.cal-filter-actions button { margin: 0; min-height: var(--touch); }
.cal-filter-actions a { display: inline-flex; align-items: center; min-height: var(--touch); }
.cal-tabs { margin: var(--space-3) 0; }
.cal-live:empty { display: none; }
.cal-legend { display: flex; flex-wrap: wrap; gap: var(--space-2) var(--space-4); list-style: none; margin: 0 0 var(--space-3); padding: 0;
  font-size: var(--text-xs); color: var(--color-text-muted); }
.cal-legend-item { display: inline-flex; align-items: center; gap: var(--space-2); }
.cal-legend-item::before { content: ""; width: .75rem; height: .75rem; border-radius: 3px; background: var(--cal-status, var(--status-draft)); }
.cal-legend-item.status-draft { --cal-status: var(--status-draft); }
.cal-legend-item.status-in_review { --cal-status: var(--status-in-review); }
.cal-legend-item.status-changes_requested { --cal-status: var(--status-changes-requested); }
.cal-legend-item.status-approved { --cal-status: var(--status-approved); }
.cal-legend-item.status-scheduled { --cal-status: var(--status-scheduled); }
.cal-legend-item.status-publishing { --cal-status: var(--status-publishing); }
.cal-legend-item.status-published { --cal-status: var(--status-published); }
.cal-legend-item.status-failed { --cal-status: var(--status-failed); }
.cal-live { margin: var(--space-2) 0; padding: var(--space-2) var(--space-3); border-radius: var(--radius-md); background: var(--color-info-soft); color: var(--color-text); }
.cal-add { display: inline-grid; place-items: center; width: 1.75rem; height: 1.75rem; margin-left: auto; border-radius: var(--radius-full);
  color: var(--color-text-muted); text-decoration: none; font-weight: 700; }
.cal-add:hover { background: var(--color-accent-soft); color: var(--color-accent); }
.cal-more { display: inline-block; font-size: var(--text-xs); font-weight: 600; color: var(--color-accent); }
.cal-drafts ul { padding-left: var(--space-5); }
.cal-drafts li { margin: var(--space-1) 0; }
.cal-drafts li .badge { margin-left: var(--space-2); vertical-align: middle; }
.cal-drop { outline: 2px dashed var(--color-accent); outline-offset: -2px; background: var(--color-accent-soft) !important; }
`

const WEEK = `
.cal-scroll { max-width: 100%; overflow-x: auto; }
.cal-week { display: grid; grid-template-columns: 3.5rem repeat(7, minmax(0, 1fr)); min-width: 52rem;
  border: 1px solid var(--color-border); border-radius: var(--radius-md); background: var(--color-surface-2); }
.cal-week .cal-day-head { display: flex; align-items: center; gap: var(--space-1); height: 3rem; margin: 0; padding: 0 var(--space-2);
  font-size: var(--text-sm); font-weight: 600; border-bottom: 1px solid var(--color-border); background: var(--color-surface);
  position: sticky; top: 0; z-index: 2; }
.cal-today-tag { padding: 0 var(--space-2); border-radius: var(--radius-full); background: var(--color-accent); color: var(--color-accent-contrast); font-size: var(--text-xs); }
.cal-day.is-today .cal-day-head { color: var(--color-accent); }
.cal-day.is-today { background: var(--color-accent-soft); }
.cal-day { min-width: 0; border-left: 1px solid var(--color-border); }
.cal-day-empty { display: none; }
.cal-slots { list-style: none; margin: 0; padding: 0; }
.cal-slot, .cal-hour-label { box-sizing: border-box; border-bottom: 1px solid var(--color-border); }
.cal-slot { position: relative; padding: 2px; min-width: 0; overflow: hidden; }
.cal-slot ul { margin: 0; padding: 0; }
.cal-slot-time { display: none; }
.fill-0 { height: 2.25rem; }
.fill-1 { height: 3rem; }
.fill-2 { height: 6.75rem; }
.cal-slot.is-now { box-shadow: inset 0 2px 0 var(--status-failed); }
.cal-hour-label { padding: 2px var(--space-1); font-size: var(--text-xs); color: var(--color-text-muted); text-align: right; font-variant-numeric: tabular-nums; background: var(--color-surface); }
.cal-week .cal-post { margin-bottom: 2px; }
.cal-week .cal-post--card .cal-post-text { -webkit-line-clamp: 1; }
.cal-week .cal-status { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.cal-week .cal-post-meta { min-height: 1.25rem; }
.cal-week .cal-post .cal-move, .cal-week .cal-post .cal-retry { position: absolute; top: 2px; right: 2px; }
.cal-week .cal-post.has-failed .cal-retry { top: auto; bottom: 2px; }
.cal-week .cal-move summary { opacity: 0; }
.cal-week .cal-post:hover .cal-move summary, .cal-week .cal-post:focus-within .cal-move summary, .cal-week .cal-move[open] summary { opacity: 1; }
.cal-week .cal-move[open] > form { top: 1.75rem; right: 0; left: auto; }
.cal-day-short { display: none; }
@media (min-width: 40.01rem) and (max-width: 90rem) { .cal-day-short { display: inline; white-space: nowrap; } .cal-week .cal-today-tag, .cal-day-long { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; } }
@media (max-width: 40rem) {
  .cal-week { display: block; min-width: 0; border: 0; background: none; }
  .cal-hours { display: none; }
  .cal-day { border: 1px solid var(--color-border); border-radius: var(--radius-md); margin-bottom: var(--space-3); background: var(--color-surface); overflow: hidden; }
  .cal-week .cal-day-head { position: static; height: auto; min-height: var(--touch); }
  .cal-day.is-empty .cal-day-empty { display: block; margin: 0; padding: var(--space-2) var(--space-3); color: var(--color-text-muted); font-size: var(--text-sm); }
  .cal-slot { height: auto; display: grid; grid-template-columns: 3rem minmax(0, 1fr); gap: var(--space-2); padding: var(--space-2); overflow: visible; }
  .cal-slot.is-empty { display: none; }
  .cal-slot-time { display: block; font-size: var(--text-xs); color: var(--color-text-muted); padding-top: var(--space-1); }
  .cal-slot .cal-more { grid-column: 2; }
  .cal-week .cal-post--card .cal-post-text { -webkit-line-clamp: 2; }
  .cal-week .cal-status { position: static; width: auto; height: auto; clip: auto; }
  .cal-week .cal-retry-button, .cal-week .cal-move summary { min-height: var(--touch); padding: 0 var(--space-3); margin-top: var(--space-1); }
  .cal-week .cal-post .cal-move, .cal-week .cal-post .cal-retry { position: static; }
  .cal-week .cal-move summary { opacity: 1; }
  .cal-week .cal-move[open] > form { top: 100%; left: 0; right: auto; }
  .cal-filters { display: grid; grid-template-columns: 1fr 1fr; }
  .cal-filter:first-child { grid-column: 1 / -1; }
  .cal-post { font-size: var(--text-sm); }
}
`

const MONTH = `
.cal-month { display: grid; grid-template-columns: repeat(7, minmax(0, 1fr)); border: 1px solid var(--color-border);
  border-radius: var(--radius-md); overflow: hidden; background: var(--color-border); gap: 1px; }
.cal-weekday { padding: var(--space-1) var(--space-2); background: var(--color-surface); color: var(--color-text-muted); font-size: var(--text-xs); font-weight: 700; text-transform: uppercase; }
.cal-mday { display: flex; flex-direction: column; height: 8.75rem; min-width: 0; padding: var(--space-1); overflow: hidden; background: var(--color-surface); }
.cal-mday.is-outside { background: var(--color-surface-2); }
.cal-mday.is-outside .cal-mday-number { color: var(--color-text-muted); }
.cal-mday-head { display: flex; align-items: center; margin: 0 0 2px; font-size: var(--text-sm); }
.cal-mday-number { display: inline-grid; place-items: center; min-width: 1.75rem; height: 1.75rem; border-radius: var(--radius-full); color: var(--color-text); text-decoration: none; font-weight: 700; }
.cal-mday.is-today .cal-mday-number { background: var(--color-accent); color: var(--color-accent-contrast); }
.cal-mday ul { margin: 0; padding: 0; min-height: 0; }
.cal-mday .cal-post { padding: 1px var(--space-1); margin-bottom: 2px; box-shadow: none; }
.cal-mday .cal-post-meta { display: none; }
.cal-mday .cal-retry, .cal-mday .cal-move { display: none; }
.cal-mday .cal-post.has-failed .cal-retry { display: inline; }
.cal-mday .cal-more { margin-top: auto; }
@media (max-width: 40rem) {
  .cal-mday { height: 4.5rem; padding: 2px; }
  .cal-mday-head .cal-add { display: none; }
  .cal-mday-number { min-width: var(--touch); height: var(--touch); }
  .cal-mday ul { display: flex; flex-wrap: wrap; gap: 2px; }
  .cal-mday .cal-post { width: .5rem; height: .5rem; padding: 0; margin: 0; border: 0; border-radius: var(--radius-full); background: var(--cal-status); }
  .cal-mday .cal-post > * { display: none !important; }
  .cal-mday .cal-more { display: none; }
  .cal-weekday { padding: 2px; text-align: center; }
}
`

const LIST = `
.cal-list-day { margin-bottom: var(--space-4); }
.cal-list-head { margin: var(--space-4) 0 var(--space-2); font-size: var(--text-md); }
.cal-list-head.is-today::after { content: " · Today"; color: var(--color-accent); }
.cal-list ul { margin: 0; padding: 0; display: grid; gap: var(--space-2); }
.cal-list .cal-post { padding: var(--space-2) var(--space-3); font-size: var(--text-sm); margin: 0; }
.cal-list .cal-post-meta { margin-top: var(--space-1); }
.cal-list .cal-retry, .cal-list .cal-move { margin-top: var(--space-2); }
.cal-list .cal-retry-button, .cal-list .cal-move summary { min-height: var(--touch); padding: 0 var(--space-3); }
.cal-pages { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-3); margin: var(--space-4) 0; }
`

/** The calendar's own styles (week time grid, month chips, list view). */
export const CALENDAR_CSS = [POST, PAGE, WEEK, MONTH, LIST].join('')
