/**
 * The shared components' styles: buttons, fields, chips, status badges, cards, tabs, dialogs,
 * toasts, empty states, skeletons, tables (scrolling inside their own box, or stacked as cards on a
 * phone) and network marks. Every colour, size and space comes from the tokens (./tokens).
 * The server components in `src/dashboard/ui/` render this markup.
 */
import { RULES } from '../../domain/rules/index'
import { PLATFORM_IDS } from '../../domain/vocabulary'

const BUTTONS = `
.btn, button, input[type=submit] {
  display: inline-flex; align-items: center; justify-content: center; gap: var(--space-2);
  min-height: var(--touch); padding: 0 var(--space-4); margin: 0;
  font: inherit; font-weight: 600; font-size: var(--text-sm); line-height: 1.2; text-decoration: none;
  border: 1px solid var(--color-accent); border-radius: var(--radius-md);
  background: var(--color-accent); color: var(--color-accent-contrast); cursor: pointer;
  transition: background-color .12s, border-color .12s, box-shadow .12s;
}
.btn:hover, button:hover { background: var(--color-accent-hover); border-color: var(--color-accent-hover); }
.btn-secondary, button.secondary, .btn.secondary {
  background: var(--color-surface); color: var(--color-text); border-color: var(--color-border);
}
.btn-secondary:hover, button.secondary:hover, .btn.secondary:hover { background: var(--color-surface-2); border-color: var(--color-text-muted); }
.btn-danger, button.danger, .danger button {
  background: var(--color-danger); border-color: var(--color-danger); color: var(--color-surface);
}
.btn-danger:hover, button.danger:hover, .danger button:hover { background: var(--color-danger); filter: brightness(.92); }
.btn-ghost, button.ghost {
  background: transparent; border-color: transparent; color: var(--color-accent);
}
.btn-ghost:hover, button.ghost:hover { background: var(--color-accent-soft); border-color: transparent; }
.btn-small { min-height: 2rem; padding: 0 var(--space-3); font-size: var(--text-xs); }
/* On a phone a small button is still a finger's height. */
@media (max-width: 639.98px) { .btn-small { min-height: var(--touch); } }
.btn[aria-disabled="true"], button:disabled { opacity: .55; cursor: not-allowed; }
.btn-block { width: 100%; }
`

const FIELDS = `
.field { display: flex; flex-direction: column; gap: var(--space-1); margin: 0 0 var(--space-4); max-width: 48rem; }
.field > label, .field-label { margin: 0; font-weight: 600; font-size: var(--text-sm); color: var(--color-text); }
.field-help { margin: 0; font-size: var(--text-sm); color: var(--color-text-muted); }
.field-errors { list-style: none; margin: 0; padding: 0; color: var(--color-danger); font-size: var(--text-sm); font-weight: 600; }
.field-errors li::before { content: "! "; }
.field-errors .warning { color: var(--color-warning); }
.field-errors .warning::before { content: ""; }
.field.has-error input, .field.has-error textarea, .field.has-error select, [aria-invalid="true"] {
  border-color: var(--color-danger); box-shadow: 0 0 0 1px var(--color-danger);
}
input[type=text], input[type=email], input[type=password], input[type=url], input[type=search], input[type=number],
input[type=datetime-local], input[type=date], input[type=time], input:not([type]), select, textarea {
  width: 100%; max-width: 40rem; min-height: var(--touch); padding: var(--space-2) var(--space-3);
  font: inherit; color: var(--color-text); background: var(--color-surface);
  border: 1px solid var(--color-border); border-radius: var(--radius-md);
}
textarea { max-width: 100%; min-height: 6rem; line-height: 1.5; resize: vertical; }
input:hover, select:hover, textarea:hover { border-color: var(--color-text-muted); }
input[type=checkbox], input[type=radio] { width: 1.25rem; height: 1.25rem; accent-color: var(--color-accent); margin: 0; }
input[type=file] { max-width: 100%; min-height: var(--touch); padding: var(--space-2) 0; font: inherit; }
input[type=file]::file-selector-button { min-height: 36px; margin-right: var(--space-3); padding: 0 var(--space-3); border: 1px solid var(--color-border); border-radius: var(--radius-md); background: var(--color-surface-2); color: var(--color-text); font: inherit; cursor: pointer; }
.check { display: flex; gap: var(--space-2); align-items: center; min-height: var(--touch); margin: 0; font-weight: 400; }
fieldset { border: 1px solid var(--color-border); border-radius: var(--radius-lg); margin: 0 0 var(--space-4); padding: var(--space-4); max-width: 48rem; min-width: 0; }
legend { font-weight: 600; padding: 0 var(--space-2); }
`

const CHIPS_AND_BADGES = `
.chip {
  display: inline-flex; align-items: center; gap: var(--space-1); min-height: 1.75rem; padding: 0 var(--space-3);
  border: 1px solid var(--color-border); border-radius: var(--radius-full); background: var(--color-surface-2);
  color: var(--color-text); font-size: var(--text-sm); line-height: 1.2; white-space: nowrap; text-decoration: none;
}
a.chip, label.chip, button.chip { min-height: var(--touch); }
.chip[aria-pressed="true"], .chip.is-selected, label.chip:has(input:checked) {
  background: var(--color-accent-soft); border-color: var(--color-accent); color: var(--color-text);
}
.chips { display: flex; flex-wrap: wrap; gap: var(--space-2); list-style: none; margin: 0; padding: 0; }
.chips + .chips { margin-top: var(--space-3); }
.badge {
  --badge: var(--color-text-muted);
  display: inline-flex; align-items: center; gap: .35em; padding: .1rem var(--space-2);
  border-radius: var(--radius-full); font-size: var(--text-xs); font-weight: 600; line-height: 1.4;
  letter-spacing: .04em; text-transform: uppercase; white-space: nowrap; color: var(--color-text);
  background: color-mix(in srgb, var(--badge) 14%, var(--color-surface));
  border: 1px solid color-mix(in srgb, var(--badge) 45%, var(--color-surface));
}
.badge::before { content: ""; width: .5rem; height: .5rem; border-radius: 50%; background: var(--badge); flex: none; }
.badge-draft { --badge: var(--status-draft); }
.badge-scheduled, .badge-pending { --badge: var(--status-scheduled); }
.badge-publishing { --badge: var(--status-publishing); }
.badge-published, .badge-active { --badge: var(--status-published); }
.badge-failed, .badge-expired, .badge-disconnected { --badge: var(--status-failed); }
.badge-in_review { --badge: var(--status-in-review); }
.badge-approved { --badge: var(--status-approved); }
.badge-changes_requested { --badge: var(--status-changes-requested); }
`

const SURFACES = `
.card {
  background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg);
  box-shadow: var(--shadow-1); padding: var(--space-5); margin: 0 0 var(--space-5); min-width: 0;
}
.card > :first-child { margin-top: 0; }
.card > :last-child { margin-bottom: 0; }
.card-header { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: var(--space-3); margin-bottom: var(--space-4); }
.card-header h2, .card-header h3 { margin: 0; font-size: var(--text-lg); }
.card-header .actions { margin: 0; }
.card-grid { display: grid; gap: var(--space-4); grid-template-columns: repeat(auto-fill, minmax(min(100%, 16rem), 1fr)); }
.card-grid > .card { margin: 0; }
.tabs { display: flex; gap: var(--space-1); overflow-x: auto; border-bottom: 1px solid var(--color-border); margin: 0 0 var(--space-4); padding: 0; list-style: none; scrollbar-width: thin; }
.tabs [role=tab], .tabs a {
  display: inline-flex; align-items: center; gap: var(--space-2); min-height: var(--touch); padding: 0 var(--space-4);
  margin: 0 0 -1px; border: 0; border-bottom: 3px solid transparent; border-radius: 0; background: transparent;
  color: var(--color-text-muted); font-weight: 600; font-size: var(--text-sm); text-decoration: none; white-space: nowrap;
}
.tabs [role=tab]:hover, .tabs a:hover { background: var(--color-surface-2); color: var(--color-text); border-color: transparent transparent var(--color-border); }
.tabs [aria-selected="true"], .tabs [aria-current="page"], .tabs [aria-current="true"] { color: var(--color-accent); border-bottom-color: var(--color-accent); }
[role=tabpanel][hidden] { display: none; }
dialog {
  width: min(32rem, calc(100vw - 2 * var(--space-4))); max-height: calc(100dvh - 2 * var(--space-6));
  padding: var(--space-5); border: 1px solid var(--color-border); border-radius: var(--radius-lg);
  background: var(--color-surface); color: var(--color-text); box-shadow: var(--shadow-3);
}
dialog::backdrop { background: rgb(0 0 0 / 45%); }
dialog h2 { margin-top: 0; font-size: var(--text-xl); }
.dialog-actions { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: var(--space-2); margin-top: var(--space-5); }
.toast {
  display: flex; align-items: flex-start; gap: var(--space-3); padding: var(--space-3) var(--space-4);
  border: 1px solid var(--color-border); border-left: 4px solid var(--color-success); border-radius: var(--radius-md);
  background: var(--color-surface); color: var(--color-text); box-shadow: var(--shadow-2); margin: 0 0 var(--space-4);
}
.toast-error { border-left-color: var(--color-danger); }
.toast-info { border-left-color: var(--color-info); }
.toasts { position: fixed; right: var(--space-4); bottom: var(--space-4); z-index: 50; display: grid; gap: var(--space-2); width: min(24rem, calc(100vw - 2 * var(--space-4))); }
.empty {
  display: flex; flex-direction: column; align-items: center; gap: var(--space-3); text-align: center;
  padding: var(--space-7) var(--space-5); border: 1px dashed var(--color-border); border-radius: var(--radius-lg);
  background: var(--color-surface); color: var(--color-text-muted);
}
.empty h2, .empty h3 { margin: 0; color: var(--color-text); font-size: var(--text-lg); }
.empty p { margin: 0; max-width: 36rem; }
.empty-icon { width: 3rem; height: 3rem; color: var(--color-text-muted); }
.skeleton {
  display: block; min-height: 1rem; border-radius: var(--radius-sm);
  background: linear-gradient(90deg, var(--color-surface-2) 25%, var(--color-border) 50%, var(--color-surface-2) 75%);
  background-size: 200% 100%; animation: skeleton 1.4s ease-in-out infinite;
}
.skeleton-group { display: grid; gap: var(--space-2); }
.skeleton-text:last-child:not(:first-child) { width: 60%; }
.skeleton-block { min-height: 8rem; border-radius: var(--radius-lg); }
.skeleton-avatar { width: 2.5rem; height: 2.5rem; border-radius: 50%; }
@keyframes skeleton { from { background-position: 200% 0; } to { background-position: -200% 0; } }
@media (prefers-reduced-motion: reduce) { .skeleton { animation: none; } * { transition: none !important; } }
`

const TABLES = `
table { border-collapse: collapse; width: 100%; margin: 0 0 var(--space-4); font-size: var(--text-sm); background: var(--color-surface); }
th, td { text-align: left; vertical-align: top; padding: var(--space-3); border: 0; border-bottom: 1px solid var(--color-border); }
caption { caption-side: top; text-align: left; font-weight: 600; padding: 0 0 var(--space-2); color: var(--color-text); }
th { font-size: var(--text-xs); font-weight: 600; text-transform: uppercase; letter-spacing: .04em; color: var(--color-text-muted); background: var(--color-surface-2); }
tbody th { font-size: var(--text-sm); text-transform: none; letter-spacing: 0; color: var(--color-text); background: transparent; }
tbody tr:hover { background: color-mix(in srgb, var(--color-accent-soft) 45%, transparent); }
.table-scroll {
  max-width: 100%; overflow-x: auto; margin: 0 0 var(--space-4);
  border: 1px solid var(--color-border); border-radius: var(--radius-lg); background: var(--color-surface);
}
.table-scroll > table { margin: 0; }
.table-scroll > table tr:last-child > td { border-bottom: 0; }
@media (max-width: 639.98px) {
  table.cards-on-phone, .cards-on-phone tbody, .cards-on-phone tr, .cards-on-phone td { display: block; width: 100%; }
  table.cards-on-phone { background: transparent; }
  .cards-on-phone thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .cards-on-phone tr {
    margin: 0 0 var(--space-3); padding: var(--space-2) var(--space-3); background: var(--color-surface);
    border: 1px solid var(--color-border); border-radius: var(--radius-lg); box-shadow: var(--shadow-1);
  }
  .cards-on-phone td { display: grid; grid-template-columns: minmax(6rem, 35%) minmax(0, 1fr); gap: var(--space-3); padding: var(--space-2) 0; overflow-wrap: anywhere; }
  .cards-on-phone td:last-child { border-bottom: 0; }
  .cards-on-phone td > * { justify-self: start; max-width: 100%; }
  /* Whatever a labelled cell holds stays in the value column, under its first line. */
  .cards-on-phone td[data-label] > * { grid-column: 2; }
  .cards-on-phone td:not([data-label]) > * { justify-self: stretch; }
  .cards-on-phone td[data-label]::before { content: attr(data-label); font-weight: 600; font-size: var(--text-xs); text-transform: uppercase; letter-spacing: .04em; color: var(--color-text-muted); }
  .cards-on-phone td:not([data-label]) { grid-template-columns: minmax(0, 1fr); }
  .table-scroll:has(> .cards-on-phone) { border: 0; background: transparent; overflow: visible; }
}
`

const NETWORKS = `
.network-mark {
  display: inline-grid; place-items: center; flex: none; width: 1.5rem; height: 1.5rem; border-radius: var(--radius-sm);
  background: var(--network, var(--color-text-muted)); color: var(--network-fg, var(--color-surface));
}
.network-mark svg { width: 78%; height: 78%; fill: none; stroke: currentColor; stroke-width: 2; stroke-linecap: round; stroke-linejoin: round; }
.network-mark.is-small { width: 1.125rem; height: 1.125rem; }
.network-mark.is-large { width: 2.25rem; height: 2.25rem; border-radius: var(--radius-md); }
.network-chip { border-color: color-mix(in srgb, var(--network) 55%, var(--color-border)); background: color-mix(in srgb, var(--network) 10%, var(--color-surface)); padding-left: var(--space-1); }
.network-chip .network-mark { width: 1.25rem; height: 1.25rem; border-radius: var(--radius-full); }
`

/** One class per network setting `--network` (its registry colour) and `--network-fg` (text or a mark on it). */
const NETWORK_COLOURS = PLATFORM_IDS.map((p) => {
  const { color, foreground } = RULES[p].display
  return `.network-${p} { --network: ${color}; --network-fg: ${foreground}; }`
}).join('\n')

export const COMPONENTS_CSS = [BUTTONS, FIELDS, CHIPS_AND_BADGES, SURFACES, TABLES, NETWORKS, NETWORK_COLOURS].join('')
