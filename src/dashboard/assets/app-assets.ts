/** The dashboard frame's own assets (the layout's stylesheet), served at `/app/assets/{name}` beside CONTENT_ASSETS. */
import type { DashboardAsset } from './content-assets'
import { DESIGN_CSS } from '../styles'
import { FAVICON_SVG } from './favicon'

const APP_CSS = `
:root { --ink: #1b1f24; --muted: #4a5260; --line: #c9ced6; --bg: #ffffff; --accent: #0b57d0; --bad: #a4161a; --ok: #1e6b33; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
:focus-visible, input:focus, input:focus-within, select:focus, textarea:focus { outline: 3px solid #f4b400; outline-offset: 2px; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; z-index: 10; }
header.top { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; padding: .75rem 1rem; border-bottom: 1px solid var(--line); }
header.top nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
header.top nav a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
.workspace-name { font-weight: 700; }
.hint, .muted { color: var(--muted); }
.switcher ul { list-style: none; padding-left: 1rem; }
.sign-out { margin-left: auto; }
main { padding: 1rem; max-width: 64rem; }
main.narrow { max-width: 28rem; margin: 2rem auto; }
label { display: block; font-weight: 600; margin-top: .75rem; }
input, select, button { font: inherit; }
input[type=text], input[type=email], input[type=password], input[type=url], select { width: 100%; max-width: 28rem; padding: .4rem; border: 1px solid var(--muted); border-radius: 4px; }
button { margin-top: .75rem; padding: .4rem .9rem; border: 1px solid var(--accent); background: var(--accent); color: #fff; border-radius: 4px; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
.inline { display: inline; }
.inline button { margin-top: 0; }
.error { color: var(--bad); font-weight: 600; }
.notice { border-left: 4px solid var(--ok); padding: .5rem 1rem; background: #eef7f0; }
.alert { border-left: 4px solid var(--bad); padding: .5rem 1rem; background: #fbeeee; }
.secret { font-family: ui-monospace, monospace; word-break: break-all; background: #f3f4f6; padding: .5rem; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.settings-nav ul { display: flex; gap: 1rem; list-style: none; padding: 0; }
`

/** The frame's assets by file name. */
export const APP_ASSETS: Record<string, DashboardAsset> = {
  'app.css': { contentType: 'text/css; charset=utf-8', body: `${APP_CSS}\n${DESIGN_CSS}` },
  'icon.svg': { contentType: 'image/svg+xml', body: FAVICON_SVG },
}
