/** Cards, page headers and tabs: the surfaces every page is built of. */
import type { Child } from 'hono/jsx'

/** A card: a surface with a border, padding and a small shadow; with a title, a header row with optional actions. */
export function Card(props: { title?: Child; actions?: Child; class?: string; id?: string; children?: Child }) {
  return (
    <section class={props.class ? `card ${props.class}` : 'card'} id={props.id}>
      {props.title || props.actions ? (
        <div class="card-header">
          {props.title ? <h2>{props.title}</h2> : null}
          {props.actions ? <div class="actions">{props.actions}</div> : null}
        </div>
      ) : null}
      {props.children}
    </section>
  )
}

/** A page's header: its title (the page's only h1), an optional line under it, and its primary action. */
export function PageHeader(props: { title: Child; description?: Child; actions?: Child }) {
  return (
    <div class="page-header">
      <div class="page-heading">
        <h1>{props.title}</h1>
        {props.description ? <p class="page-description">{props.description}</p> : null}
      </div>
      {props.actions ? <div class="page-actions">{props.actions}</div> : null}
    </div>
  )
}

/** One tab: a link to a view (server-rendered tabs switch by navigation, no script needed). */
export interface TabLink {
  key: string
  label: Child
  href: string
}

/**
 * Navigation tabs between views of one page (week / month / list, settings sections): links, the
 * current one marked `aria-current="page"`. For in-page panels switched by script, use role=tablist
 * markup instead (`.tabs` styles both).
 */
export function Tabs(props: { label: string; tabs: readonly TabLink[]; current?: string }) {
  return (
    <nav aria-label={props.label}>
      <ul class="tabs">
        {props.tabs.map((t) => (
          <li>
            <a href={t.href} aria-current={t.key === props.current ? 'page' : undefined}>
              {t.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}
