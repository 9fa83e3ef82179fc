/**
 * The other pages' styles at every width (accounts, media, queue, settings, sign-in, invitation,
 * agent consent): cards on a phone. `table.cards` is a table on a wide screen and one card per row
 * under 40rem, each cell led by its `data-label`; controls on these pages are at least `--touch` high.
 */
export const PAGES_CSS = `
main { min-width: 0; }
main h1, main h2 { overflow-wrap: anywhere; }
.lead { color: var(--color-text-muted); }
.empty-note { padding: var(--space-5); border: 1px dashed var(--color-border); border-radius: var(--radius-md); color: var(--color-text-muted); background: var(--color-surface); }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(8rem, 1fr)); gap: var(--space-2) var(--space-4); margin: var(--space-3) 0; }
.facts dt { font-size: var(--text-xs); color: var(--color-text-muted); text-transform: uppercase; letter-spacing: .04em; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.card-actions { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; margin-top: var(--space-3); }
.card-actions form { margin: 0; }
.card-actions button { margin-top: 0; }
.action-link { display: inline-flex; align-items: center; min-height: var(--touch); padding: 0 var(--space-3); border-radius: var(--radius-md); }
.action-link:hover { background: var(--color-accent-soft); }

/* Controls a thumb hits: the connect form, the cards, the tables made cards, the forms of settings and sign-in. */
.connect-form :is(button, select), .account-card button, .media-card :is(button, select, textarea, input, summary),
.filter-form :is(button, select), table.cards :is(button, select, input), .settings-nav a,
main.narrow :is(button, select, input:not([type=checkbox]):not([type=radio])), main > .upload input, .queue-form > button,
main:has(.settings-nav) :is(form button, form input:not([type=checkbox]):not([type=radio]), form select) {
  min-height: var(--touch);
}
.row-actions { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; }
.row-actions .row-form { margin: 0; }
.row-form { display: inline-flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; margin: 0 var(--space-2) var(--space-2) 0; }
.row-form label { margin: 0; }
.row-form button { margin-top: 0; }
.inline-check { display: flex; align-items: center; gap: var(--space-2); min-height: var(--touch); font-weight: 400; margin: 0; }
.inline-check input { width: 1.25rem; height: 1.25rem; }

/* The cards carry the theme's own link and muted colours, whatever the frame around them sets. */
:is(.account-card, .media-card, .connect-form, main.narrow, table.cards) a { color: var(--color-accent); }
:is(.account-card, .media-card, main.narrow, table.cards) :is(.muted, .hint) { color: var(--color-text-muted); }

/* Accounts: one card per account. */
.connect-form { color: var(--color-text); display: flex; flex-wrap: wrap; gap: var(--space-3); align-items: flex-end; padding: var(--space-4); margin: var(--space-4) 0; background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg); }
.connect-field { flex: 1 1 14rem; min-width: 0; }
.connect-field label { margin-top: 0; }
.connect-field select { max-width: none; }
.connect-form button { margin-top: 0; }
.account-cards, .media-grid { list-style: none; padding: 0; margin: var(--space-4) 0; display: grid; gap: var(--space-4); grid-template-columns: repeat(auto-fill, minmax(min(100%, 17rem), 1fr)); }
.account-card, .media-card { color: var(--color-text); min-width: 0; padding: var(--space-4); background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg); box-shadow: var(--shadow-1); }
.account-head { display: flex; gap: var(--space-2); align-items: center; justify-content: space-between; }
.account-name { font-weight: 700; font-size: var(--text-lg); overflow-wrap: anywhere; min-width: 0; }
.account-network { margin: var(--space-1) 0 0; color: var(--color-text-muted); }
.account-reason { margin: var(--space-2) 0 0; color: var(--color-danger); }

/* Media: a grid of thumbnails. */
.media-grid { grid-template-columns: repeat(auto-fill, minmax(min(100%, 14rem), 1fr)); }
.media-card { padding: 0; overflow: hidden; display: flex; flex-direction: column; }
.media-card > img, .media-placeholder { display: block; width: 100%; height: auto; aspect-ratio: 1; object-fit: cover; background: var(--color-surface-2); }
.media-placeholder { display: grid; place-items: center; color: var(--color-text-muted); text-transform: uppercase; font-weight: 700; }
.media-card > :not(img):not(.media-placeholder) { margin-left: var(--space-3); margin-right: var(--space-3); }
.media-card .facts { grid-template-columns: 1fr; }
.media-card .asset-editor { margin-bottom: var(--space-3); }
.media-card .asset-editor summary { display: flex; align-items: center; cursor: pointer; }
.media-card textarea, .media-card select, .media-card input[type=text] { width: 100%; max-width: none; }
.filter-form { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: flex-end; }
.filter-form label { margin: 0; flex-basis: 100%; }
.filter-form select { flex: 1 1 12rem; width: auto; }
.filter-form button { margin-top: 0; }
.upload { max-width: 100%; }
.upload input, .upload progress { max-width: 100%; }

/* Settings */
.settings-nav ul { flex-wrap: wrap; gap: var(--space-2); }
.settings-nav a { display: inline-flex; align-items: center; padding: 0 var(--space-3); border-radius: var(--radius-full); border: 1px solid var(--color-border); text-decoration: none; }
.settings-nav a:hover { background: var(--color-accent-soft); }
.settings-nav a[aria-current=page] { background: var(--color-accent); border-color: var(--color-accent); color: var(--color-accent-contrast); font-weight: 600; }
.endpoint-url { font-size: var(--text-lg); font-family: var(--font-mono); }
.secret { overflow-wrap: anywhere; }
main.narrow { color: var(--color-text); padding: var(--space-5); background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg); box-shadow: var(--shadow-2); }
main.narrow input[type=text], main.narrow input[type=email], main.narrow input[type=password] { max-width: none; }
main.narrow button { width: 100%; }

/* Queue */
.slot-table select, .slot-table input[type=time] { width: 100%; max-width: 14rem; }
.check-cell { white-space: nowrap; }
.check-cell label { display: inline-flex; align-items: center; min-height: var(--touch); margin: 0 0 0 var(--space-2); font-weight: 400; }

table.cards td { overflow-wrap: anywhere; }
@media (max-width: 40rem) {
  main.narrow { margin: var(--space-4); padding: var(--space-4); }
  table.cards, table.cards tbody, table.cards tr, table.cards td, table.cards th[scope=row] { display: block; width: 100%; }
  table.cards caption { display: block; text-align: left; font-weight: 700; padding-bottom: var(--space-2); }
  table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  table.cards tr { color: var(--color-text); margin: 0 0 var(--space-3); padding: var(--space-3); background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-md); }
  table.cards td { border: 0; padding: var(--space-1) 0; }
  table.cards td[data-label] { display: grid; grid-template-columns: minmax(5rem, 7rem) minmax(0, 1fr); gap: var(--space-2); align-items: center; }
  table.cards td[data-label]::before { content: attr(data-label); font-weight: 600; color: var(--color-text-muted); font-size: var(--text-sm); }
  table.cards td:empty { display: none; }
  .slot-table select, .slot-table input[type=time] { max-width: none; }
}
`
