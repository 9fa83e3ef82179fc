import { raw } from 'hono/html'
import type { Child } from 'hono/jsx'
import { can, type Permission } from '../domain/access'
import type { DashboardMember } from './env'
import { workspacePage } from './env'
import { CONTENT_ASSETS } from './assets/content-assets'
import { BRAND_MARK_PATH } from './assets/favicon'

export interface LayoutProps {
  title: string
  member: DashboardMember
  csrfToken: string
  /** The navigation entry to mark as current, e.g. `calendar`. */
  current?: string
  children?: Child
}

export const PRODUCT_NAME = 'Social Publishing'

/** A navigation entry: key, label, path under the workspace, and its icon (24x24 stroke path). */
interface NavEntry {
  key: string
  label: string
  path: string
  icon: string
  /** What the member's role must allow for the entry to show (the page refuses anyway). */
  permission?: Permission
}

/** The navigation of every workspace page. */
const NAVIGATION: NavEntry[] = [
  { key: 'calendar', label: 'Calendar', path: '/calendar', icon: 'M4 5h16v15H4zM4 10h16M8 3v4M16 3v4' },
  {
    key: 'compose',
    label: 'Compose',
    path: '/compose',
    icon: 'M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4',
    permission: 'write',
  },
  { key: 'review', label: 'Review', path: '/review', icon: 'M4 12l5 5L20 6M4 5h7M4 19h3' },
  {
    key: 'inbox',
    label: 'Inbox',
    path: '/inbox',
    icon: 'M3 13l3-8h12l3 8M3 13v6h18v-6M3 13h5l1 3h6l1-3h5',
  },
  {
    key: 'queue',
    label: 'Queue',
    path: '/queue',
    icon: 'M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01',
    permission: 'publish',
  },
  {
    key: 'accounts',
    label: 'Accounts',
    path: '/accounts',
    icon: 'M9 4a3.5 3.5 0 1 0 0 7a3.5 3.5 0 1 0 0-7zM3 20c0-3.5 2.7-6 6-6s6 2.5 6 6M16 4.5a3.5 3.5 0 0 1 0 6.5M18 14c2 .7 3 2.8 3 6',
  },
  {
    key: 'media',
    label: 'Media',
    path: '/media',
    icon: 'M3 5h18v14H3zM3 16l5-5 4 4 3-3 6 6M15.5 8.5h.01',
    permission: 'write',
  },
  {
    key: 'analytics',
    label: 'Analytics',
    path: '/analytics',
    icon: 'M4 20V4M4 20h16M8 16v-4M12 16V8M16 16v-6M20 16V6',
  },
  {
    key: 'notifications',
    label: 'Notifications',
    path: '/notifications',
    icon: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0',
  },
  {
    key: 'settings',
    label: 'Settings',
    path: '/settings',
    icon: 'M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0M14 4v4M8 10v4M16 16v4',
  },
]

/** A 24x24 line icon drawn with the current text colour; decorative (its label is beside it). */
export const Icon = (props: { d: string; class?: string }) => (
  <svg class={props.class ?? 'icon'} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d={props.d} />
  </svg>
)

/** The product's own mark: a paper sheet sent along an arc, drawn for this project (also the favicon). */
const BRAND_MARK = BRAND_MARK_PATH

/**
 * The HTML document of every page we render, in standards mode: a head with the page's title, our icon
 * and our stylesheets (all served from `/app/assets`, so a strict policy allows them), `head` adding
 * what a page needs besides; then the body.
 */
export function HtmlDocument(props: { title: string; head?: Child; children?: Child }) {
  return (
    <>
      {raw('<!DOCTYPE html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light dark" />
          {props.head}
          <title>{`${props.title} · ${PRODUCT_NAME}`}</title>
          <link rel="icon" href="/app/assets/icon.svg" type="image/svg+xml" />
          {CONTENT_ASSETS['content.css'] ? <link rel="stylesheet" href="/app/assets/content.css" /> : null}
          <link rel="stylesheet" href="/app/assets/app.css" />
        </head>
        <body>{props.children}</body>
      </html>
    </>
  )
}

/** The document around every dashboard page: a skip link, then the page. */
export const Document = (props: { title: string; children?: Child }) => (
  <HtmlDocument title={props.title}>
    <a class="skip" href="#main">
      Skip to content
    </a>
    {props.children}
  </HtmlDocument>
)

/** The product name with its mark, linking to the dashboard's home. */
export const Brand = () => (
  <a class="brand" href="/app">
    <span class="brand-mark">
      <Icon d={BRAND_MARK} />
    </span>
    <span class="brand-name">{PRODUCT_NAME}</span>
  </a>
)

/** The workspace switcher: a disclosure listing the user's other workspaces (no script needed). */
function Switcher(props: { member: DashboardMember }) {
  const others = (props.member.workspaces ?? []).filter((w) => w.workspaceId !== props.member.workspaceId)
  if (others.length === 0)
    return (
      <div class="switcher">
        <span class="switcher-current">
          <span class="workspace-name">{props.member.workspaceName}</span>
        </span>
      </div>
    )
  return (
    <details class="switcher">
      <summary class="switcher-current">
        <span class="visually-hidden">Workspace: </span>
        <span class="workspace-name">{props.member.workspaceName}</span>
        <span class="visually-hidden"> (switch workspace)</span>
        <Icon class="icon chevron" d="M6 9l6 6 6-6" />
      </summary>
      <div class="popover">
        <p class="popover-title">Switch workspace</p>
        <ul>
          {others.map((w) => (
            <li>
              <a href={workspacePage(w)}>{w.name}</a>
            </li>
          ))}
        </ul>
      </div>
    </details>
  )
}

/** The Inbox entry's count of unread comments and mentions ("99+" past 99); nothing when none. */
function UnreadBadge(props: { count: number }) {
  if (props.count <= 0) return null
  return (
    <span class="nav-count" data-unread={String(props.count)}>
      {props.count > 99 ? '99+' : String(props.count)}
      <span class="visually-hidden"> unread</span>
    </span>
  )
}

/** The navigation links; `label` tells the two copies (sidebar, phone menu) apart for screen readers. */
function NavLinks(props: { member: DashboardMember; current?: string; label: string }) {
  return (
    <nav aria-label={props.label} class="nav">
      <ul>
        {NAVIGATION.filter(
          (n) =>
            (!n.permission || can(props.member.role, n.permission)) &&
            (n.key !== 'settings' || props.member.role !== 'reviewer'),
        ).map((n) => (
          <li>
            <a href={workspacePage(props.member, n.path)} aria-current={props.current === n.key ? 'page' : undefined}>
              <Icon d={n.icon} />
              <span>{n.label}</span>
              {n.key === 'inbox' ? <UnreadBadge count={props.member.unreadInbox ?? 0} /> : null}
              {n.key === 'notifications' ? <UnreadBadge count={props.member.unreadNotifications ?? 0} /> : null}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/**
 * The theme switch: a form posting to `/app/theme`, no script needed. The current choice is marked by
 * CSS from `data-theme` on the root element (set from the same cookie the route stores).
 */
export function ThemeSwitch(props: { csrfToken: string }) {
  return (
    <form method="post" action="/app/theme" class="theme-switch">
      <input type="hidden" name="_csrf" value={props.csrfToken} />
      <fieldset>
        <legend>Theme</legend>
        <button type="submit" name="theme" value="light" class="btn btn-ghost">
          Light
        </button>
        <button type="submit" name="theme" value="dark" class="btn btn-ghost">
          Dark
        </button>
        <button type="submit" name="theme" value="system" class="btn btn-ghost">
          System
        </button>
      </fieldset>
    </form>
  )
}

/** Who is signed in, the theme switch and sign-out: the account corner of the frame. */
function AccountPanel(props: { member: DashboardMember; csrfToken: string }) {
  const { member } = props
  return (
    <div class="account-panel">
      <p class="who">
        <span class="who-name">{member.name}</span> <span class="who-role">{member.role}</span>
      </p>
      <ThemeSwitch csrfToken={props.csrfToken} />
      <form method="post" action="/app/sign-out" class="sign-out">
        <input type="hidden" name="_csrf" value={props.csrfToken} />
        <button type="submit" class="btn btn-secondary btn-block">
          Sign out
        </button>
      </form>
    </div>
  )
}

/**
 * The page frame every signed-in page renders in: a top bar (product, workspace switcher, new post),
 * a sidebar with the navigation and the account corner on a wide screen, the same in a menu on a phone
 * (a <details> disclosure: no script needed), and the main region.
 */
export function Layout(props: LayoutProps) {
  const { member } = props
  return (
    <Document title={props.title}>
      <div class="shell">
        <header class="topbar">
          <Brand />
          <Switcher member={member} />
          {can(member.role, 'write') ? (
            <a class="btn topbar-compose" href={workspacePage(member, '/compose')}>
              <Icon d="M12 5v14M5 12h14" />
              <span>New post</span>
            </a>
          ) : null}
          <details class="menu">
            <summary class="btn btn-secondary">
              <Icon d="M4 7h16M4 12h16M4 17h16" />
              <span>Menu</span>
              <UnreadBadge count={(member.unreadInbox ?? 0) + (member.unreadNotifications ?? 0)} />
            </summary>
            <div class="menu-panel">
              <NavLinks member={member} current={props.current} label="Workspace" />
              <AccountPanel member={member} csrfToken={props.csrfToken} />
            </div>
          </details>
        </header>
        <aside class="sidebar">
          <NavLinks member={member} current={props.current} label="Workspace" />
          <AccountPanel member={member} csrfToken={props.csrfToken} />
        </aside>
        <main id="main">{props.children}</main>
      </div>
    </Document>
  )
}
