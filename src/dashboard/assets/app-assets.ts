/** The dashboard frame's own assets (the layout's stylesheet), served at `/app/assets/{name}` beside CONTENT_ASSETS. */
import type { DashboardAsset } from './content-assets'
import { DESIGN_CSS } from '../styles'
import { FAVICON_SVG } from './favicon'

/** The page's base: type, links, focus, headings, the utility classes every page uses. Tokens only. */
const BASE_CSS = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0; min-height: 100dvh; font: var(--text-md)/1.55 var(--font-sans); color: var(--color-text);
  background: var(--color-bg); -webkit-font-smoothing: antialiased; overflow-wrap: break-word;
}
h1, h2, h3, h4 { line-height: 1.25; margin: 0 0 var(--space-3); color: var(--color-text); letter-spacing: -.01em; }
h1 { font-size: var(--text-2xl); font-weight: 700; }
h2 { font-size: var(--text-xl); font-weight: 650; margin-top: var(--space-6); }
h3 { font-size: var(--text-lg); font-weight: 600; margin-top: var(--space-5); }
p { margin: 0 0 var(--space-3); }
a { color: var(--color-accent); text-underline-offset: .15em; }
a:hover { color: var(--color-accent-hover); }
img, svg, video { max-width: 100%; }
pre, code { font-family: var(--font-mono); font-size: .92em; }
pre { overflow-x: auto; padding: var(--space-3); background: var(--color-surface-2); border-radius: var(--radius-md); }
hr { border: 0; border-top: 1px solid var(--color-border); margin: var(--space-5) 0; }
:focus-visible, input:focus, input:focus-within, select:focus, textarea:focus { outline: 3px solid var(--color-focus); outline-offset: 2px; }
.icon { width: 1.25rem; height: 1.25rem; flex: none; fill: none; stroke: currentColor; stroke-width: 2; stroke-linecap: round; stroke-linejoin: round; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: var(--space-4); top: var(--space-4); z-index: 100; padding: var(--space-2) var(--space-4); background: var(--color-surface); color: var(--color-text); border-radius: var(--radius-md); box-shadow: var(--shadow-2); }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.hint, .muted { color: var(--color-text-muted); }
.hint { font-size: var(--text-sm); margin: var(--space-1) 0 0; }
.error { color: var(--color-danger); font-weight: 600; font-size: var(--text-sm); margin: var(--space-1) 0 0; }
.notice, .alert, .problem {
  display: flex; gap: var(--space-2); align-items: flex-start; margin: 0 0 var(--space-4); padding: var(--space-3) var(--space-4);
  border: 1px solid var(--color-border); border-left: 4px solid var(--color-success); border-radius: var(--radius-md);
  background: var(--color-success-soft); color: var(--color-text);
}
.alert, .problem { border-left-color: var(--color-danger); background: var(--color-danger-soft); }
.secret { font-family: var(--font-mono); word-break: break-all; background: var(--color-surface-2); padding: var(--space-3); border-radius: var(--radius-md); border: 1px solid var(--color-border); }
.inline { display: inline-flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; margin: 0; }
.actions { display: flex; flex-wrap: wrap; gap: var(--space-2); align-items: center; margin: var(--space-4) 0; }
.actions > form { margin: 0; }
.stack > * + * { margin-top: var(--space-4); }
label { display: block; font-weight: 600; font-size: var(--text-sm); margin: var(--space-4) 0 var(--space-1); }
label.check, .check label { font-weight: 400; font-size: var(--text-md); margin: 0; }
form > button, form > .btn { margin-top: var(--space-4); }
form.inline > button, .actions button, .actions .btn, td button, .inline button { margin-top: 0; }
`

/** The frame: top bar, sidebar (wide screens) or menu (phones), main region, public pages. */
const FRAME_CSS = `
.shell { display: grid; grid-template-columns: minmax(0, 1fr); grid-template-rows: auto 1fr; grid-template-areas: "top" "main"; min-height: 100dvh; }
.topbar {
  grid-area: top; position: sticky; top: 0; z-index: 20; display: flex; align-items: center; gap: var(--space-3);
  min-height: 3.75rem; padding: var(--space-2) var(--space-4); background: var(--color-surface);
  border-bottom: 1px solid var(--color-border);
}
.brand { display: inline-flex; align-items: center; gap: var(--space-2); min-height: var(--touch); color: var(--color-text); font-weight: 700; text-decoration: none; flex: none; }
.brand:hover { color: var(--color-text); }
.brand-mark { display: inline-grid; place-items: center; width: 2rem; height: 2rem; border-radius: var(--radius-md); background: var(--color-accent); color: var(--color-accent-contrast); }
.brand-mark .icon { width: 1.25rem; height: 1.25rem; }
.switcher { position: relative; min-width: 0; flex: 0 1 auto; }
.switcher-current {
  display: flex; align-items: center; gap: var(--space-1); min-height: var(--touch); max-width: 16rem; padding: 0 var(--space-3);
  border: 1px solid var(--color-border); border-radius: var(--radius-md); background: var(--color-surface-2); cursor: default;
  list-style: none; font-weight: 600; font-size: var(--text-sm);
}
summary.switcher-current { cursor: pointer; }
summary.switcher-current::-webkit-details-marker { display: none; }
.workspace-name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
.switcher .chevron { width: 1rem; height: 1rem; }
.popover {
  position: absolute; left: 0; top: calc(100% + var(--space-1)); z-index: 30; min-width: 14rem; max-width: calc(100vw - 2 * var(--space-4));
  padding: var(--space-2); background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-md); box-shadow: var(--shadow-2);
}
.popover-title { margin: var(--space-1) var(--space-2); font-size: var(--text-xs); font-weight: 600; text-transform: uppercase; letter-spacing: .04em; color: var(--color-text-muted); }
.popover ul { list-style: none; margin: 0; padding: 0; }
.popover a { display: flex; align-items: center; min-height: var(--touch); padding: 0 var(--space-2); border-radius: var(--radius-sm); color: var(--color-text); text-decoration: none; }
.popover a:hover { background: var(--color-surface-2); }
.topbar-compose { margin-left: auto; }
.menu { position: static; }
.menu > summary { list-style: none; }
.menu > summary::-webkit-details-marker { display: none; }
.menu-panel {
  position: absolute; left: 0; right: 0; top: 100%; max-height: calc(100dvh - 4rem); overflow-y: auto;
  padding: var(--space-3) var(--space-4) var(--space-5); background: var(--color-surface);
  border-bottom: 1px solid var(--color-border); box-shadow: var(--shadow-3);
}
.sidebar { display: none; }
.nav ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 2px; }
.nav a {
  display: flex; align-items: center; gap: var(--space-3); min-height: var(--touch); padding: 0 var(--space-3);
  border-radius: var(--radius-md); color: var(--color-text-muted); font-weight: 600; font-size: var(--text-sm); text-decoration: none;
}
.nav a:hover { background: var(--color-surface-2); color: var(--color-text); }
.nav a[aria-current="page"] { background: var(--color-accent-soft); color: var(--color-accent); }
.nav-count { margin-left: auto; min-width: 1.5rem; padding: 0 .4rem; border-radius: var(--radius-full); background: var(--color-accent);
  color: var(--color-accent-contrast); font-size: var(--text-xs); line-height: 1.5rem; text-align: center; font-variant-numeric: tabular-nums; }
.account-panel { display: grid; gap: var(--space-3); margin-top: var(--space-4); padding-top: var(--space-4); border-top: 1px solid var(--color-border); }
.who { margin: 0; display: flex; flex-wrap: wrap; align-items: baseline; gap: var(--space-2); font-size: var(--text-sm); }
.who-name { font-weight: 600; overflow-wrap: anywhere; }
.who-role { font-size: var(--text-xs); text-transform: uppercase; letter-spacing: .04em; color: var(--color-text-muted); }
.theme-switch fieldset { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 2px; margin: 0; padding: 2px; border: 1px solid var(--color-border); border-radius: var(--radius-md); background: var(--color-surface-2); }
.theme-switch legend { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.theme-switch button { margin: 0; padding: 0 var(--space-2); color: var(--color-text-muted); font-size: var(--text-xs); border-radius: var(--radius-sm); }
:root[data-theme="light"] .theme-switch button[value="light"],
:root[data-theme="dark"] .theme-switch button[value="dark"],
:root:not([data-theme]) .theme-switch button[value="system"] { background: var(--color-surface); color: var(--color-text); box-shadow: var(--shadow-1); }
.sign-out { margin: 0; }
.sign-out > button { margin: 0; }
main { grid-area: main; min-width: 0; width: 100%; max-width: var(--content-width); padding: var(--space-5) var(--space-4) var(--space-7); }
.settings-nav ul { display: flex; gap: var(--space-1); overflow-x: auto; list-style: none; margin: 0 0 var(--space-5); padding: 0; border-bottom: 1px solid var(--color-border); }
.settings-nav a { display: inline-flex; align-items: center; min-height: var(--touch); padding: 0 var(--space-3); margin-bottom: -1px; border-bottom: 3px solid transparent; color: var(--color-text-muted); font-weight: 600; font-size: var(--text-sm); text-decoration: none; white-space: nowrap; }
.settings-nav a:hover { color: var(--color-text); background: var(--color-surface-2); }
.settings-nav a[aria-current="page"] { color: var(--color-accent); border-bottom-color: var(--color-accent); }
main > h1:first-child, .page-header { margin-top: 0; }
.page-header { display: flex; flex-wrap: wrap; align-items: flex-end; justify-content: space-between; gap: var(--space-3) var(--space-4); margin: 0 0 var(--space-5); }
.page-header h1 { margin: 0; }
.page-description { margin: var(--space-1) 0 0; color: var(--color-text-muted); }
.page-actions { display: flex; flex-wrap: wrap; gap: var(--space-2); }
main.narrow {
  width: auto; max-width: 28rem; margin: 0 auto; padding: var(--space-5); background: var(--color-surface);
  border: 1px solid var(--color-border); border-radius: var(--radius-lg); box-shadow: var(--shadow-2);
}
.public-top { display: flex; justify-content: center; padding: var(--space-6) var(--space-4) var(--space-4); }
main.narrow input:not([type=checkbox]):not([type=radio]):not([type=hidden]) { width: 100%; }
main.narrow form > button { width: 100%; }
@media (max-width: 639.98px) {
  /* A wide table no page has made into cards scrolls inside itself, never the page. */
  main table:not(.cards-on-phone) { display: block; max-width: 100%; overflow-x: auto; }
  .table-scroll > table:not(.cards-on-phone) { display: table; }
}
@media (max-width: 479.98px) {
  .brand-name { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .topbar { gap: var(--space-2); padding: var(--space-2) var(--space-3); }
  .topbar-compose span { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .topbar-compose, .menu > summary { padding: 0 var(--space-3); }
  .menu > summary span { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  main { padding: var(--space-4) var(--space-3) var(--space-6); }
  main.narrow { margin: 0 var(--space-3); width: auto; }
  h1 { font-size: var(--text-xl); }
}
@media (min-width: 960px) {
  .shell { grid-template-columns: 15rem minmax(0, 1fr); grid-template-areas: "top top" "side main"; grid-template-rows: auto 1fr; }
  .topbar { height: 3.75rem; padding-block: 0; }
  .menu { display: none; }
  .sidebar {
    grid-area: side; display: flex; flex-direction: column; justify-content: space-between; gap: var(--space-4);
    position: sticky; top: 3.75rem; height: calc(100dvh - 3.75rem); overflow-y: auto;
    padding: var(--space-4) var(--space-3); background: var(--color-surface); border-right: 1px solid var(--color-border);
  }
  main { padding: var(--space-6) var(--space-6) var(--space-8); }
}
`

/** The frame's assets by file name: the base and the frame, then the design system (tokens, components, each page's styles). */
export const APP_ASSETS: Record<string, DashboardAsset> = {
  'app.css': {
    contentType: 'text/css; charset=utf-8',
    body: [BASE_CSS, FRAME_CSS, DESIGN_CSS].join('\n'),
  },
  'icon.svg': { contentType: 'image/svg+xml', body: FAVICON_SVG },
}
