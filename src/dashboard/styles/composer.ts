/** The composer's own styles (editor, previews, media picker). Colours only from the tokens. */
import { RULES } from '../../domain/rules/index'

/** One class per recommended size in the registry: a preview's media frame keeps that network's aspect ratio. */
const FRAMES = [...new Set(Object.values(RULES).flatMap((r) => r.recommended.map((s) => `${s.width}x${s.height}`)))]
  .map((size) => {
    const [w, h] = size.split('x').map(Number) as [number, number]
    return `.frame-${size} { aspect-ratio: ${w} / ${h}; --frame-ratio: ${(w / h).toFixed(4)}; }`
  })
  .join('\n')

const LAYOUT = `
.composer { color: var(--color-text); display: grid; gap: var(--space-5); grid-template-columns: minmax(0, 1fr); align-items: start; }
@media (min-width: 60rem) {
  .composer { grid-template-columns: minmax(0, 1.15fr) minmax(0, 1fr); }
  .composer-actions { position: sticky; bottom: 0; }
  /* The previews' column runs the editor's whole height, so its inner panel can stay in view. */
  .composer-previews { align-self: stretch; }
  .composer .composer-editor > .preview-jump { display: none; }
  /* Below the sticky top bar (3.75rem high). */
  .previews-sticky { position: sticky; top: calc(3.75rem + var(--space-4)); max-height: calc(100vh - 3.75rem - 2 * var(--space-4)); overflow-y: auto; padding-right: var(--space-1); }
}
.composer [hidden] { display: none !important; }
.composer:not(.is-live) .js-only { display: none !important; }
.composer .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.composer .preview-jump { align-self: flex-start; display: inline-flex; align-items: center; min-height: var(--touch); }
.composer-editor { display: flex; flex-direction: column; gap: var(--space-4); min-width: 0; }
.composer-section { margin: 0; padding: var(--space-4); background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg); box-shadow: var(--shadow-1); min-width: 0; }
fieldset.composer-section > legend { float: left; width: 100%; padding: 0; margin-bottom: var(--space-2); font-weight: 700; }
fieldset.composer-section > legend ~ * { clear: both; }
.composer-section > label:first-child, .composer-section .field > label:first-child { margin-top: 0; }
.composer .field + .field { margin-top: var(--space-3); }
.composer label { color: var(--color-text); }
.composer .hint { color: var(--color-text-muted); font-size: var(--text-sm); margin: var(--space-1) 0 var(--space-2); }
.composer textarea, .composer input[type=text], .composer input[type=url], .composer input[type=datetime-local], .composer select {
  width: 100%; max-width: none; font: inherit; color: var(--color-text); background: var(--color-surface);
  border: 1px solid var(--color-border); border-radius: var(--radius-md); padding: var(--space-2) var(--space-3); min-height: var(--touch);
}
/* A date-time field's focus sits in its inner parts: ring the field itself. */
.composer input:focus-within { outline: 3px solid var(--color-focus); outline-offset: 2px; }
.composer textarea { resize: vertical; line-height: 1.5; }
.composer button { min-height: var(--touch); }
.composer button.secondary { background: var(--color-surface); color: var(--color-accent); border-color: var(--color-border); }
.composer button.secondary:hover { border-color: var(--color-accent); }
.composer .field-errors { list-style: none; padding: 0; margin: var(--space-1) 0 0; color: var(--color-danger); font-size: var(--text-sm); font-weight: 600; }
.composer .field-errors:empty { display: none; }
.composer .field-errors li.warning { color: var(--color-warning); font-weight: 500; }
.composer [aria-invalid="true"] { border-color: var(--color-danger); }
`

const ACCOUNTS = `
.account-picker { display: flex; flex-wrap: wrap; gap: var(--space-2); list-style: none; margin: 0; padding: 0; }
.account-chip { position: relative; min-width: 0; max-width: 100%; }
.account-chip input { position: absolute; left: var(--space-3); top: 50%; translate: 0 -50%; margin: 0; width: 1.1rem; height: 1.1rem; accent-color: var(--color-accent); }
.account-chip label { display: flex; align-items: center; gap: var(--space-2); min-height: var(--touch); margin: 0; cursor: pointer; font-weight: 500;
  padding: var(--space-1) var(--space-3) var(--space-1) calc(var(--space-3) + 1.5rem); border: 1px solid var(--color-border); border-radius: var(--radius-full); background: var(--color-surface); }
.account-chip label:hover { border-color: var(--color-accent); }
.account-chip:has(input:checked) label { border-color: var(--color-accent); background: var(--color-accent-soft); box-shadow: inset 0 0 0 1px var(--color-accent); }
.account-chip-text { display: flex; flex-direction: column; line-height: 1.2; min-width: 0; }
.account-chip-name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.account-chip-network { font-size: var(--text-xs); color: var(--color-text-muted); }
.counters { display: flex; flex-wrap: wrap; gap: var(--space-1) var(--space-3); list-style: none; padding: 0; margin: var(--space-2) 0 0; font-size: var(--text-sm); color: var(--color-text-muted); }
.counters li.unused { display: none; }
.counters li.over { color: var(--color-danger); font-weight: 700; }
.counters output { font-variant-numeric: tabular-nums; }
`

const OVERRIDES = `
.overrides > summary { cursor: pointer; font-weight: 700; min-height: var(--touch); display: flex; align-items: center; gap: var(--space-2); list-style: none; }
.overrides > summary::-webkit-details-marker { display: none; }
/* A chevron says the heading opens (a flex summary loses the browser's marker). */
.overrides > summary::before { content: ""; flex: none; width: .5rem; height: .5rem; border-right: 2px solid currentColor; border-bottom: 2px solid currentColor; transform: rotate(-45deg); transition: transform .15s; }
.overrides[open] > summary::before { transform: rotate(45deg); }
.override-tabs { display: flex; gap: var(--space-1); overflow-x: auto; border-bottom: 1px solid var(--color-border); margin: 0 0 var(--space-3); }
.composer .override-tab { margin: 0; display: flex; align-items: center; gap: var(--space-2); white-space: nowrap; padding: 0 var(--space-3);
  background: transparent; color: var(--color-text-muted); border: 0; border-bottom: 3px solid transparent; border-radius: 0; font-weight: 600; }
.composer .override-tab[aria-selected="true"] { color: var(--color-text); border-bottom-color: var(--color-accent); }
.override-tab .network-mark { width: 1.4rem; height: 1.4rem; font-size: .65rem; }
.override-tab.has-text .override-dot { width: .5rem; height: .5rem; border-radius: var(--radius-full); background: var(--color-accent); }
.composer.is-live .override-panel:not(.is-active) { display: none; }
.composer.is-live .override-panel + .override-panel { margin-top: 0; }
`

const MEDIA = `
.composer .media-picker { display: grid; grid-template-columns: repeat(auto-fill, minmax(8.5rem, 1fr)); gap: var(--space-3); list-style: none; padding: 0; margin: 0 0 var(--space-3); }
.media-tile { position: relative; display: flex; flex-direction: column; border: 1px solid var(--color-border); border-radius: var(--radius-md); background: var(--color-surface-2); overflow: hidden; }
.media-tile:has(input:checked) { border-color: var(--color-accent); box-shadow: 0 0 0 2px var(--color-accent); }
.media-tile input { position: absolute; top: var(--space-2); left: var(--space-2); z-index: 1; margin: 0; width: 1.25rem; height: 1.25rem; accent-color: var(--color-accent); }
.media-tile label { margin: 0; font-weight: 400; cursor: pointer; display: flex; flex-direction: column; }
.composer .media-tile img, .media-tile-video { display: block; width: 100%; height: auto; aspect-ratio: 1; object-fit: cover; }
.media-tile-video { display: grid; place-items: center; color: var(--color-text-muted); font-size: var(--text-sm); }
.media-tile-name { font-size: var(--text-xs); padding: var(--space-1) var(--space-2); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; color: var(--color-text); }
.media-tile-order:not(:empty) { position: absolute; top: var(--space-2); right: var(--space-2); min-width: 1.5rem; height: 1.5rem; display: grid; place-items: center;
  border-radius: var(--radius-full); background: var(--color-accent); color: var(--color-accent-contrast); font-size: var(--text-xs); font-weight: 700; }
.media-tile-tools { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-1); padding: 0 var(--space-1) var(--space-1); }
.composer .icon-button { margin: 0; min-width: var(--touch); padding: 0; background: var(--color-surface); color: var(--color-text); border: 1px solid var(--color-border); }
.media-tile-crops { display: inline-flex; align-items: center; justify-content: center; min-width: var(--touch); min-height: var(--touch); font-size: var(--text-xs); margin-left: auto; padding: var(--space-1); }
.composer.is-live .media-tile { cursor: grab; }
.media-tile.is-dragging { opacity: .45; }
.media-tile.drop-before { box-shadow: -4px 0 0 var(--color-accent); }
.media-tile.drop-after { box-shadow: 4px 0 0 var(--color-accent); }
.upload { display: grid; gap: var(--space-1); border-top: 1px solid var(--color-border); padding-top: var(--space-3); }
.upload label { margin-top: var(--space-1); }
.upload progress { width: 100%; height: .6rem; accent-color: var(--color-accent); }
.upload [role="status"] { margin: 0; font-size: var(--text-sm); color: var(--color-text-muted); }
`

const SCHEDULE = `
.schedule-row { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; }
.schedule-row input { flex: 1 1 14rem; width: auto; }
.schedule-row button { margin: 0; }
.schedule-hints { list-style: none; padding: 0; margin: var(--space-2) 0 0; font-size: var(--text-sm); display: grid; gap: var(--space-1); }
.composer-actions { z-index: 2; display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2);
  padding: var(--space-3) 0; background: var(--color-bg); border-top: 1px solid var(--color-border); }
.composer-actions button { margin: 0; }
.autosave-status { margin: 0 0 0 auto; font-size: var(--text-sm); }
.composer-actions-review { display: grid; grid-template-columns: minmax(0, 1fr) auto auto; align-items: center; }
.composer-actions-review .review-why { grid-column: 1 / -1; margin: 0; padding: var(--space-2) var(--space-3); border-radius: var(--radius-md);
  background: color-mix(in srgb, var(--status-in-review) 12%, var(--color-surface)); border-left: 3px solid var(--status-in-review); font-size: var(--text-sm); }
/* "Once approved" and its choice on a row of their own (the choice is never cut), the buttons under it at the right. */
.review-intent { display: grid; grid-template-columns: auto minmax(0, 1fr); align-items: center; gap: var(--space-1) var(--space-3); min-width: 0; grid-column: 1 / -1; }
.review-intent label { margin: 0; font-size: var(--text-sm); font-weight: 600; }
.review-intent select { min-height: var(--touch); }
.composer-actions-review > button { grid-row: 3; }
.composer-actions-review > button[value="draft"] { grid-column: 2; }
.composer-actions-review > button[value="review"] { grid-column: 3; }
.composer-actions-review .autosave-status { grid-column: 1; grid-row: 3; margin: 0; }
@media (max-width: 40rem) {
  .composer-actions-review { grid-template-columns: 1fr 1fr; }
  .review-intent { grid-template-columns: minmax(0, 1fr); }
  .composer-actions-review > button { grid-row: auto; grid-column: auto !important; }
  .composer-actions-review .autosave-status { grid-column: 1 / -1; grid-row: auto; }
}
.label-picker .chips { margin-bottom: var(--space-3); }
.label-chip { display: inline-flex; align-items: center; gap: var(--space-2); cursor: pointer; }
.label-chip input { margin: 0; }
.label-dot { width: .625rem; height: .625rem; flex: none; }
.label-new { display: grid; gap: var(--space-1); max-width: 24rem; }
.label-new .hint { margin: 0; }
.composer-notes { margin-top: var(--space-5); max-width: 48rem; }
`

const PREVIEWS = `
.composer-previews { min-width: 0; }
.composer-previews h2 { font-size: var(--text-lg); margin: 0; }
.preview-list { display: flex; flex-direction: column; gap: var(--space-3); margin-top: var(--space-3); }
.preview-card { min-width: 0; padding: var(--space-3) var(--space-4); background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg); box-shadow: var(--shadow-1); }
.preview-card.is-over { border-color: var(--color-danger); }
.preview-head { display: flex; align-items: center; gap: var(--space-2); margin-bottom: var(--space-2); }
.preview-who { display: flex; flex-direction: column; flex: 1; min-width: 0; line-height: 1.2; }
.preview-name { font-weight: 700; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.preview-network { font-size: var(--text-xs); color: var(--color-text-muted); }
.preview-count { font-size: var(--text-xs); color: var(--color-text-muted); font-variant-numeric: tabular-nums; white-space: nowrap; }
.preview-count.over { color: var(--color-danger); font-weight: 700; }
.preview-text, .preview-title { margin: 0 0 var(--space-2); white-space: pre-wrap; overflow-wrap: anywhere; }
.preview-title { font-weight: 700; }
.preview-empty { margin: 0 0 var(--space-2); color: var(--color-text-muted); font-style: italic; }
mark.overflow { background: var(--color-danger-soft); color: var(--color-danger); text-decoration: underline wavy; text-decoration-thickness: 1px; border-radius: 2px; }
.preview-media { position: relative; margin: 0 0 var(--space-2); border-radius: var(--radius-md); overflow: hidden; background: var(--color-surface-2);
  width: min(100%, calc(20rem * var(--frame-ratio, 1))); }
.preview-media img, .preview-media video { display: block; width: 100%; height: 100%; object-fit: cover; }
.preview-more { position: absolute; right: var(--space-2); bottom: var(--space-2); padding: 0 var(--space-2); border-radius: var(--radius-full);
  background: var(--color-surface); color: var(--color-text); font-size: var(--text-xs); font-weight: 700; }
.preview-link { display: flex; flex-direction: column; gap: 2px; margin: 0 0 var(--space-2); padding: var(--space-2) var(--space-3); border: 1px solid var(--color-border); border-radius: var(--radius-md); background: var(--color-surface-2); }
.preview-link-domain { font-size: var(--text-xs); color: var(--color-text-muted); text-transform: uppercase; letter-spacing: .03em; }
.preview-link-title { font-size: var(--text-sm); font-weight: 600; }
.preview-thread { display: flex; flex-direction: column; gap: var(--space-2); list-style: none; margin: 0 0 var(--space-2); padding: 0 0 0 var(--space-3); border-left: 2px solid var(--color-border); }
.preview-thread li.over { border-left: 2px solid var(--color-danger); margin-left: calc(-1 * var(--space-3) - 2px); padding-left: var(--space-3); }
.preview-thread .preview-text { margin: 0; }
.preview-notes { list-style: none; margin: 0; padding: 0; font-size: var(--text-xs); color: var(--color-text-muted); }
.preview-placeholder { margin: 0; padding: var(--space-5); border: 1px dashed var(--color-border); border-radius: var(--radius-lg); text-align: center; color: var(--color-text-muted); }
`

export const COMPOSER_CSS = [LAYOUT, ACCOUNTS, OVERRIDES, MEDIA, SCHEDULE, PREVIEWS, FRAMES].join('\n')
