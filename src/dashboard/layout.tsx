import type { Child } from 'hono/jsx'
import type { DashboardMember } from './env'
import { workspacePage } from './env'
import { CONTENT_ASSETS } from './assets/content-assets'

export interface LayoutProps {
  title: string
  member: DashboardMember
  csrfToken: string
  /** The navigation entry to mark as current, e.g. `calendar`. */
  current?: string
  children?: Child
}

/** The navigation of every workspace page: entry key, label, path under the workspace. */
const NAVIGATION: Array<[string, string, string]> = [
  ['calendar', 'Calendar', '/calendar'],
  ['compose', 'Compose', '/compose'],
  ['accounts', 'Accounts', '/accounts'],
  ['media', 'Media', '/media'],
  ['queue', 'Queue', '/queue'],
  ['analytics', 'Analytics', '/analytics'],
  ['settings', 'Settings', '/settings'],
]

/** The document around every dashboard page: our stylesheets, a skip link, the page's title. */
export function Document(props: { title: string; children?: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · Social Publishing`}</title>
        <link rel="icon" href="/app/assets/icon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/app/assets/app.css" />
        {CONTENT_ASSETS['content.css'] ? <link rel="stylesheet" href="/app/assets/content.css" /> : null}
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        {props.children}
      </body>
    </html>
  )
}

/** The workspace switcher: a disclosure listing the user's other workspaces (no script needed). */
function Switcher(props: { member: DashboardMember }) {
  const others = (props.member.workspaces ?? []).filter((w) => w.workspaceId !== props.member.workspaceId)
  if (others.length === 0) return <span class="workspace-name">{props.member.workspaceName}</span>
  return (
    <details class="switcher">
      <summary>
        <span class="workspace-name">{props.member.workspaceName}</span> <span class="hint">(switch workspace)</span>
      </summary>
      <ul>
        {others.map((w) => (
          <li>
            <a href={workspacePage(w)}>{w.name}</a>
          </li>
        ))}
      </ul>
    </details>
  )
}

/** The page frame every signed-in page renders in: navigation, workspace switcher, main region. */
export function Layout(props: LayoutProps) {
  const { member } = props
  return (
    <Document title={props.title}>
      <header class="top">
        <Switcher member={member} />
        <nav aria-label="Workspace">
          <ul>
            {NAVIGATION.map(([key, label, path]) => (
              <li>
                <a href={workspacePage(member, path)} aria-current={props.current === key ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <form method="post" action="/app/sign-out" class="sign-out">
          <input type="hidden" name="_csrf" value={props.csrfToken} />
          <span class="who">
            {member.name} ({member.role})
          </span>{' '}
          <button type="submit">Sign out</button>
        </form>
      </header>
      <main id="main">{props.children}</main>
    </Document>
  )
}
