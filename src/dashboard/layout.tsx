import type { Child } from 'hono/jsx'
import type { DashboardMember } from './env'

export interface LayoutProps {
  title: string
  member: DashboardMember
  csrfToken: string
  /** The navigation entry to mark as current, e.g. `calendar`. */
  current?: string
  children?: Child
}

/** The page frame every signed-in page renders in: navigation, workspace switcher, main region. */
export function Layout(props: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>{props.title}</title>
      </head>
      <body>
        <main>{props.children}</main>
      </body>
    </html>
  )
}
