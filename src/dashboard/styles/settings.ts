/**
 * The settings pages: their own navigation (a column from 960 px, a scrolling row below), setting
 * cards, the switch, colour swatches, group and label lists, the account picker (large rows that
 * work by touch), member rows and the plan's usage meters. Tokens only.
 */
const FRAME = `
.settings { display: grid; gap: var(--space-5); grid-template-columns: minmax(0, 1fr); }
.settings-nav ul { display: flex; gap: var(--space-1); margin: 0 0 var(--space-2); padding: 0 0 var(--space-1); list-style: none; overflow-x: auto; scrollbar-width: thin; border-bottom: 1px solid var(--color-border); }
.settings-nav a {
  display: flex; align-items: center; min-height: var(--touch); padding: 0 var(--space-3); border-radius: var(--radius-md);
  color: var(--color-text-muted); font-weight: 600; font-size: var(--text-sm); text-decoration: none; white-space: nowrap;
  margin: 0; border-bottom: 0;
}
.settings-nav a:hover { background: var(--color-surface-2); color: var(--color-text); }
.settings-nav a[aria-current="page"] { background: var(--color-accent-soft); color: var(--color-accent); }
.settings-body { min-width: 0; max-width: 56rem; }
.settings-readonly { padding: var(--space-3) var(--space-4); border-radius: var(--radius-md); background: var(--color-info-soft); color: var(--color-text); border: 1px solid var(--color-border); }
.settings-refused { max-width: 34rem; margin: var(--space-6) auto; padding: var(--space-6); background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg); box-shadow: var(--shadow-1); }
@media (min-width: 960px) {
  .settings { grid-template-columns: 12rem minmax(0, 1fr); gap: var(--space-6); align-items: start; }
  .settings-nav { position: sticky; top: 5rem; }
  .settings-nav ul { flex-direction: column; overflow: visible; border: 0; padding: 0; }
}
`

const CARDS = `
.setting { background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg); box-shadow: var(--shadow-1); margin: 0 0 var(--space-5); }
.setting-head { padding: var(--space-4) var(--space-5) 0; }
.setting-head h2 { margin: 0; font-size: var(--text-lg); }
.setting-head p { margin: var(--space-1) 0 0; color: var(--color-text-muted); font-size: var(--text-sm); }
.setting-body { padding: var(--space-4) var(--space-5); }
.setting-body > :last-child { margin-bottom: 0; }
.setting-foot { display: flex; flex-wrap: wrap; gap: var(--space-2); justify-content: flex-end; align-items: center; padding: var(--space-3) var(--space-5); border-top: 1px solid var(--color-border); background: var(--color-surface-2); border-radius: 0 0 var(--radius-lg) var(--radius-lg); }
.setting-foot .muted { margin: 0 auto 0 0; font-size: var(--text-sm); }
.setting form > button, .setting-foot button { margin-top: 0; }
.setting label:first-child, .setting-body > input[type=hidden]:first-child + label { margin-top: 0; }
.setting.is-danger { border-color: color-mix(in srgb, var(--color-danger) 45%, var(--color-border)); }
.form-grid { display: grid; gap: 0 var(--space-4); grid-template-columns: minmax(0, 1fr); }
@media (min-width: 640px) { .form-grid { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
.form-grid input, .form-grid select { max-width: none; }
`

const SWITCH = `
.switch-row { display: flex; gap: var(--space-4); align-items: flex-start; justify-content: space-between; margin: 0 0 var(--space-4); font-size: var(--text-md); font-weight: 400; cursor: pointer; }
.switch-row .switch-text { display: grid; gap: var(--space-1); }
.switch-row .switch-title { font-weight: 600; }
.switch-row .switch-help { color: var(--color-text-muted); font-size: var(--text-sm); }
input.switch {
  appearance: none; -webkit-appearance: none; flex: none; position: relative; width: 3rem; height: 1.75rem; margin: var(--space-2) 0;
  border-radius: var(--radius-full); background: color-mix(in srgb, var(--color-text-muted) 60%, var(--color-border)); border: 0; cursor: pointer; transition: background-color .15s;
}
input.switch::after {
  content: ""; position: absolute; top: .1875rem; left: .1875rem; width: 1.375rem; height: 1.375rem; border-radius: 50%;
  background: var(--color-surface); box-shadow: var(--shadow-1); transition: transform .15s;
}
input.switch:checked { background: var(--color-accent); }
input.switch:checked::after { transform: translateX(1.25rem); }
.switch-state { display: inline-flex; align-items: center; gap: var(--space-2); font-weight: 600; font-size: var(--text-sm); }
.explain { list-style: none; margin: var(--space-4) 0 0; padding: 0; display: grid; gap: var(--space-3); }
.explain li { display: grid; grid-template-columns: 1.75rem minmax(0, 1fr); gap: var(--space-2); align-items: start; font-size: var(--text-sm); color: var(--color-text-muted); }
.explain li strong { color: var(--color-text); }
.explain .step { display: inline-grid; place-items: center; width: 1.5rem; height: 1.5rem; border-radius: 50%; background: var(--color-accent-soft); color: var(--color-accent); font-weight: 700; font-size: var(--text-xs); }
`

const SWATCHES = `
.dot { display: inline-block; flex: none; width: .75rem; height: .75rem; vertical-align: middle; }
.dot.is-large { width: 1rem; height: 1rem; }
.swatches { display: flex; flex-wrap: wrap; gap: var(--space-2); border: 0; padding: 0; margin: var(--space-4) 0; }
.swatches legend { padding: 0; margin: 0 0 var(--space-2); font-size: var(--text-sm); }
.swatch { position: relative; display: inline-grid; place-items: center; width: var(--touch); height: var(--touch); margin: 0; border-radius: 50%; cursor: pointer; }
.swatch input { position: absolute; inset: 0; width: 100%; height: 100%; opacity: 0; margin: 0; cursor: pointer; }
.swatch svg { width: 1.75rem; height: 1.75rem; border-radius: 50%; }
.swatch:has(input:checked) { box-shadow: 0 0 0 2px var(--color-surface), 0 0 0 4px var(--color-text); }
.swatch:has(input:focus-visible) { outline: 3px solid var(--color-focus); outline-offset: 2px; }
`

const GROUPS = `
.group-list, .label-list, .member-list { list-style: none; margin: 0 0 var(--space-5); padding: 0; display: grid; gap: var(--space-3); }
.group-card { display: grid; gap: var(--space-3); padding: var(--space-4) var(--space-5); background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg); box-shadow: var(--shadow-1); }
.group-top { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2) var(--space-3); }
.group-name { margin: 0; font-size: var(--text-lg); display: inline-flex; align-items: center; gap: var(--space-2); flex: 1 1 12rem; min-width: 0; overflow-wrap: anywhere; }
.group-meta { margin: 0; color: var(--color-text-muted); font-size: var(--text-sm); }
.group-accounts { display: flex; flex-wrap: wrap; gap: var(--space-2); list-style: none; margin: 0; padding: 0; }
.group-accounts li { max-width: 100%; }
.group-accounts .chip { max-width: 100%; overflow: hidden; text-overflow: ellipsis; }
.badge-approval { --badge: var(--status-publishing); }
.badge-role { --badge: var(--color-accent); }
.chip-group { gap: var(--space-2); }
.account-groups { display: flex; flex-wrap: wrap; gap: var(--space-1); list-style: none; margin: var(--space-2) 0 0; padding: 0; }
.account-groups .chip { min-height: 1.5rem; font-size: var(--text-xs); }
.picker { display: grid; gap: var(--space-2); grid-template-columns: repeat(auto-fill, minmax(min(100%, 15rem), 1fr)); border: 0; padding: 0; margin: 0 0 var(--space-4); max-width: none; }
.picker legend { padding: 0; margin: 0 0 var(--space-2); font-weight: 600; font-size: var(--text-sm); }
.pick {
  display: flex; align-items: center; gap: var(--space-3); min-height: 3.25rem; margin: 0; padding: var(--space-2) var(--space-3);
  border: 1px solid var(--color-border); border-radius: var(--radius-md); background: var(--color-surface);
  font-weight: 400; font-size: var(--text-sm); cursor: pointer; min-width: 0;
}
.pick:hover { border-color: var(--color-text-muted); }
.pick:has(input:checked) { border-color: var(--color-accent); background: var(--color-accent-soft); }
.pick input { flex: none; }
.pick-text { display: grid; min-width: 0; }
.pick-text strong { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-weight: 600; }
.pick-text span { color: var(--color-text-muted); font-size: var(--text-xs); }
.confirm-delete summary { display: inline-flex; align-items: center; min-height: var(--touch); padding: 0 var(--space-3); border-radius: var(--radius-md); color: var(--color-danger); font-weight: 600; font-size: var(--text-sm); cursor: pointer; list-style: none; }
.confirm-delete summary::-webkit-details-marker { display: none; }
.confirm-delete summary:hover { background: var(--color-danger-soft); }
.confirm-delete[open] { flex-basis: 100%; }
.confirm-delete .confirm-box { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; margin-top: var(--space-2); padding: var(--space-3); border-radius: var(--radius-md); background: var(--color-danger-soft); }
.confirm-delete .confirm-box p { margin: 0; flex: 1 1 14rem; font-size: var(--text-sm); }
.filter-chips .chip[aria-current="true"] { background: var(--color-accent-soft); border-color: var(--color-accent); color: var(--color-text); }
.filter-chips { display: flex; flex-wrap: wrap; gap: var(--space-2); list-style: none; margin: 0 0 var(--space-4); padding: 0; }
`

const LABELS = `
.label-row { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2) var(--space-3); padding: var(--space-3) var(--space-4); background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg); }
.label-chip { display: inline-flex; align-items: center; gap: var(--space-2); font-weight: 600; flex: 1 1 10rem; min-width: 0; overflow-wrap: anywhere; }
.label-row details.edit[open] { flex-basis: 100%; order: 3; }
.label-row details.edit[open] { padding-top: var(--space-2); border-top: 1px solid var(--color-border); }
.label-row summary, .member-row summary { display: inline-flex; align-items: center; min-height: var(--touch); padding: 0 var(--space-3); border-radius: var(--radius-md); color: var(--color-accent); font-weight: 600; font-size: var(--text-sm); cursor: pointer; }
.label-row summary:hover, .member-row summary:hover { background: var(--color-accent-soft); }
`

const MEMBERS = `
.member-row { display: grid; gap: var(--space-3); padding: var(--space-4); background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg); grid-template-columns: minmax(0, 1fr); }
.member-who { display: flex; align-items: center; gap: var(--space-3); min-width: 0; }
.avatar { display: inline-grid; place-items: center; flex: none; width: 2.5rem; height: 2.5rem; border-radius: 50%; background: var(--color-accent-soft); color: var(--color-accent); font-weight: 700; }
.member-name { display: grid; min-width: 0; }
.member-name strong { overflow-wrap: anywhere; }
.member-name span { color: var(--color-text-muted); font-size: var(--text-sm); overflow-wrap: anywhere; }
.member-scope { display: flex; flex-wrap: wrap; gap: var(--space-1) var(--space-2); align-items: center; font-size: var(--text-sm); color: var(--color-text-muted); }
.member-manage { display: grid; gap: var(--space-3); grid-template-columns: minmax(0, 1fr); }
/* A role select shrinks with its row (its longest option is cut, never the card). */
.member-manage .row-form select { flex: 1 1 14rem; min-width: 0; max-width: 22rem; }
@media (min-width: 720px) {
  .member-row { grid-template-columns: minmax(0, 1fr) auto; align-items: start; }
  .member-row > .member-manage { grid-column: 1 / -1; }
}
.roles { list-style: none; margin: 0 0 var(--space-4); padding: 0; display: grid; gap: var(--space-2); grid-template-columns: repeat(auto-fill, minmax(min(100%, 12rem), 1fr)); }
.roles li { padding: var(--space-3); border: 1px solid var(--color-border); border-radius: var(--radius-md); background: var(--color-surface-2); font-size: var(--text-sm); color: var(--color-text-muted); }
.roles strong { display: block; color: var(--color-text); }
`

const USAGE = `
.usage { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--space-4); }
.usage-line { display: flex; justify-content: space-between; gap: var(--space-3); font-size: var(--text-sm); margin-bottom: var(--space-1); }
.usage-line strong { font-weight: 600; }
.usage-line span { color: var(--color-text-muted); }
.usage progress { -webkit-appearance: none; appearance: none; display: block; width: 100%; height: .5rem; border: 0; border-radius: var(--radius-full); background: var(--color-surface-2); overflow: hidden; }
.usage progress::-webkit-progress-bar { background: var(--color-surface-2); border-radius: var(--radius-full); }
.usage progress::-webkit-progress-value { background: var(--color-accent); border-radius: var(--radius-full); }
.usage progress::-moz-progress-bar { background: var(--color-accent); border-radius: var(--radius-full); }
.plan-name { display: inline-flex; align-items: center; gap: var(--space-2); }
.token-role { display: flex; flex-wrap: wrap; gap: var(--space-1); align-items: center; }
`

export const SETTINGS_CSS = [FRAME, CARDS, SWITCH, SWATCHES, GROUPS, LABELS, MEMBERS, USAGE].join('')
