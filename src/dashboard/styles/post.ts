/** The post page's own styles: header and summary, target cards, media grid, overrides, thread, options. */
export const POST_CSS = `
.post-header, .post-layout { color: var(--color-text); }
.post-header { display: grid; gap: var(--space-2); margin-bottom: var(--space-4); }
.post-header h1 { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-3); margin: 0; }
.post-summary { margin: 0; font-size: var(--text-lg); color: var(--color-text); max-width: 60ch; overflow-wrap: anywhere; }
.post-actions { margin: 0; }
.post-layout { display: grid; gap: var(--space-5); grid-template-columns: minmax(0, 1fr); }
@media (min-width: 60rem) { .post-layout { grid-template-columns: minmax(0, 2fr) minmax(16rem, 1fr); align-items: start; } }
.post-main, .post-side { display: grid; gap: var(--space-5); min-width: 0; }
.post-section { background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg);
  padding: var(--space-4); box-shadow: var(--shadow-1); min-width: 0; color: var(--color-text); }
.post-section h2 { margin: 0 0 var(--space-3); font-size: var(--text-lg); }
.post-section h3 { margin: var(--space-4) 0 var(--space-2); font-size: var(--text-md); color: var(--color-text-muted); }
.post-caption { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
.post-targets { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--space-3); }
.post-target { border: 1px solid var(--color-border); border-left: 4px solid var(--status-draft); border-radius: var(--radius-md);
  padding: var(--space-3) var(--space-4); background: var(--color-surface); display: grid; gap: var(--space-2); min-width: 0; }
.post-target > p { margin: 0; }
.post-target-published { border-left-color: var(--status-published); }
.post-target-failed { border-left-color: var(--status-failed); }
.post-target-publishing { border-left-color: var(--status-publishing); }
.post-target-pending { border-left-color: var(--status-scheduled); }
.post-target-head { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: var(--space-2); }
.post-target-name { font-weight: 600; display: inline-flex; align-items: center; gap: var(--space-2); overflow-wrap: anywhere; }
.post-target-status { color: var(--color-text-muted); }
.post-permalink a { display: inline-flex; align-items: center; min-height: var(--touch); overflow-wrap: anywhere; word-break: break-all; }
.post-target-error, .post-target-warning { border-radius: var(--radius-md); padding: var(--space-3); display: grid; gap: var(--space-2);
  background: var(--color-danger-soft); color: var(--color-text); overflow-wrap: anywhere; }
.post-target-warning { background: var(--color-warning-soft); }
.post-target-error p, .post-target-warning p { margin: 0; }
.post-target-actions { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; }
.post-target-actions form { margin: 0; }
.post-target-actions button, .post-target-actions a { margin: 0; min-height: var(--touch); display: inline-flex; align-items: center; }
.post-metrics { display: grid; grid-template-columns: repeat(auto-fit, minmax(7.5rem, 1fr)); gap: var(--space-2); margin: 0; }
.post-metrics div { background: var(--color-surface-2); border-radius: var(--radius-md); padding: var(--space-2) var(--space-3); }
.post-metrics dt { font-size: var(--text-xs); color: var(--color-text-muted); text-transform: uppercase; letter-spacing: .04em; }
.post-metrics dd { margin: 0; font-size: var(--text-lg); font-weight: 600; font-variant-numeric: tabular-nums; }
.post-metric-unreported dd { font-size: var(--text-sm); font-weight: 400; color: var(--color-text-muted); }
.post-metric-total { background: var(--color-accent-soft) !important; }
.post-figures { display: grid; gap: var(--space-2); }
.post-figures p, .post-figures-empty { margin: 0; font-size: var(--text-sm); }
.post-media { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--space-3);
  grid-template-columns: repeat(auto-fill, minmax(8rem, 1fr)); }
.post-media-item { display: grid; gap: var(--space-1); min-width: 0; }
.post-media-item img, .post-media-video { width: 100%; height: auto; aspect-ratio: 1; object-fit: cover; border-radius: var(--radius-md);
  background: var(--color-surface-2); border: 1px solid var(--color-border); }
.post-media-video { display: flex; align-items: center; justify-content: center; color: var(--color-text-muted); font-weight: 600; }
.post-media-alt { font-size: var(--text-sm); color: var(--color-text-muted); overflow-wrap: anywhere; }
.post-media-alt-missing { color: var(--color-warning); }
.post-media-missing { border: 1px dashed var(--color-border); border-radius: var(--radius-md); padding: var(--space-3);
  font-size: var(--text-sm); color: var(--color-text-muted); }
.post-overrides { margin: 0; display: grid; gap: var(--space-3); }
.post-override { border-left: 3px solid var(--color-accent); padding-left: var(--space-3); }
.post-override dt { font-weight: 600; font-size: var(--text-sm); display: flex; align-items: center; gap: var(--space-2); }
.post-override dd { margin: var(--space-1) 0 0; }
.post-thread { margin: 0; padding-left: var(--space-5); display: grid; gap: var(--space-2); }
.post-thread li { padding: var(--space-2) var(--space-3); background: var(--color-surface-2); border-radius: var(--radius-md); }
.post-options { margin: 0; display: grid; gap: var(--space-2); }
.post-options div { display: grid; grid-template-columns: minmax(6rem, 40%) minmax(0, 1fr); gap: var(--space-2); }
.post-options dt { color: var(--color-text-muted); font-size: var(--text-sm); }
.post-options dd { margin: 0; overflow-wrap: anywhere; }
.post-side .danger p { font-size: var(--text-sm); color: var(--color-text-muted); }
.removals { overflow-wrap: anywhere; }
@media (max-width: 40rem) { .post-section { padding: var(--space-3); } .post-target { padding: var(--space-3); } }
.approval-panel { display: grid; gap: var(--space-3); border-top: 4px solid var(--status-draft); }
.approval-panel.approval-in_review { border-top-color: var(--status-in-review); }
.approval-panel.approval-approved { border-top-color: var(--status-approved); }
.approval-panel.approval-changes_requested { border-top-color: var(--status-changes-requested); }
.approval-panel h2, .notes-panel h2 { margin: 0; }
.approval-lead { margin: 0; color: var(--color-text-muted); }
.approval-facts { margin: 0; display: grid; gap: var(--space-1); font-size: var(--text-sm); }
.approval-facts div { display: grid; grid-template-columns: 7.5rem minmax(0, 1fr); gap: var(--space-2); }
.approval-facts dt { color: var(--color-text-muted); }
.approval-facts dd { margin: 0; overflow-wrap: anywhere; }
.approval-note, .approval-comment { margin: 0; padding: var(--space-3); border-radius: var(--radius-md); background: var(--color-surface-2);
  border-left: 3px solid var(--color-border); overflow-wrap: anywhere; white-space: pre-wrap; }
.approval-comment { background: color-mix(in srgb, var(--status-changes-requested) 10%, var(--color-surface));
  border-left-color: var(--status-changes-requested); }
.approval-note p, .approval-comment p { margin: 0; }
.approval-quote-who { font-size: var(--text-xs); color: var(--color-text-muted); font-weight: 600; margin-bottom: var(--space-1) !important; }
.approval-form { display: grid; gap: var(--space-2); margin: 0; }
.approval-form textarea { width: 100%; }
.approval-intent { display: grid; gap: var(--space-2); grid-template-columns: repeat(auto-fit, minmax(min(100%, 17rem), 1fr)); }
.approval-intent > div { display: grid; gap: var(--space-1); min-width: 0; }
.approval-intent select, .approval-intent input { width: 100%; min-height: var(--touch); }
.approval-form label { font-size: var(--text-sm); font-weight: 600; }
.approval-form button { justify-self: start; }
.approval-edit { justify-self: start; }
.approval-resubmit summary { cursor: pointer; min-height: var(--touch); display: flex; align-items: center; color: var(--color-accent); font-size: var(--text-sm); }
.approval-resubmit[open] summary { margin-bottom: var(--space-2); }
.approval-decide { display: grid; gap: var(--space-3); }
.approval-decide form { margin: 0; }
.approval-decide .button-approve { width: 100%; background: var(--status-approved); border-color: var(--status-approved); color: var(--color-surface); }
.approval-changes summary { width: 100%; justify-content: center; list-style: none; }
.approval-changes summary::-webkit-details-marker { display: none; }
.approval-changes[open] summary { margin-bottom: var(--space-3); }
.notes-panel { display: grid; gap: var(--space-3); }
.notes-panel h2 .muted { font-size: var(--text-sm); font-weight: 400; color: var(--color-text-muted); }
.notes-empty { margin: 0; color: var(--color-text-muted); font-size: var(--text-sm); }
.notes { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--space-3); }
.note { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: var(--space-1) var(--space-2); padding: var(--space-3);
  border-radius: var(--radius-md); background: var(--color-surface-2); }
.note-own { background: var(--color-accent-soft); }
.note-head { margin: 0; font-size: var(--text-sm); display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: baseline; }
.note-head time { color: var(--color-text-muted); font-size: var(--text-xs); }
.note-body { grid-column: 1 / -1; margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.note-delete { grid-row: 1; grid-column: 2; margin: 0; }
.note-delete button { min-height: 2rem; padding: 0 var(--space-2); font-size: var(--text-sm); }
@media (max-width: 639.98px) { .note-delete button { min-height: var(--touch); } }
.mention { background: color-mix(in srgb, var(--color-accent) 18%, transparent); color: var(--color-text); border-radius: var(--radius-sm);
  padding: 0 .15em; font-weight: 600; }
.note-form { display: grid; gap: var(--space-2); margin: 0; }
.note-form > label { font-size: var(--text-sm); font-weight: 600; }
.note-form button { justify-self: end; }
.note-form textarea { width: 100%; }
.note-form .hint { margin: 0; }
.mention-field { position: relative; }
.mention-list { position: absolute; left: 0; right: 0; top: 100%; z-index: 5; list-style: none; margin: var(--space-1) 0 0; padding: var(--space-1);
  background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-md); box-shadow: var(--shadow-2);
  max-height: 14rem; overflow: auto; }
.mention-list [role=option] { padding: var(--space-2) var(--space-3); border-radius: var(--radius-sm); cursor: pointer; min-height: var(--touch);
  display: flex; align-items: center; }
.mention-list [role=option][aria-selected="true"] { background: var(--color-accent-soft); outline: 2px solid var(--color-accent); outline-offset: -2px; }
.mention-list [role=option][hidden] { display: none; }
@media (max-width: 59.99rem) {
  .post-layout .post-main, .post-layout .post-side { display: contents; }
  .post-layout .post-section { order: 7; }
  .post-layout [aria-labelledby="post-text-title"] { order: 1; }
  .post-layout [aria-labelledby="post-media-title"] { order: 2; }
  .post-layout .approval-panel { order: 3; }
  .post-layout [aria-labelledby="post-targets-title"] { order: 4; }
  .post-layout .notes-panel { order: 5; }
  .post-layout .post-comments { order: 6; }
}
`
