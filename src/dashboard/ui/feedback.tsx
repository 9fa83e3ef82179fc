/** What a page says back: toasts, empty states, skeletons while something loads. */
import type { Child } from 'hono/jsx'

/** A toast: a short message announced politely (`role=status`), or assertively when it is an error. */
export function Toast(props: { kind?: 'success' | 'error' | 'info'; children?: Child }) {
  const kind = props.kind ?? 'success'
  return (
    <div class={kind === 'success' ? 'toast' : `toast toast-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      <div>{props.children}</div>
    </div>
  )
}

/** An empty state: what is missing, why it matters, and the one action that fills it. */
export function EmptyState(props: { title: Child; children?: Child; action?: Child; icon?: Child }) {
  return (
    <div class="empty">
      {props.icon ?? null}
      <h2>{props.title}</h2>
      {props.children ? <p>{props.children}</p> : null}
      {props.action ? <div class="actions">{props.action}</div> : null}
    </div>
  )
}

/** A placeholder while content loads, hidden from assistive technology: text lines, a block or a round avatar. */
export function Skeleton(props: { shape?: 'text' | 'block' | 'avatar'; lines?: number }) {
  const shape = props.shape ?? 'text'
  const lines = shape === 'text' ? Math.max(1, props.lines ?? 1) : 1
  return (
    <div aria-hidden="true" class="skeleton-group">
      {Array.from({ length: lines }, () => (
        <span class={`skeleton skeleton-${shape}`} />
      ))}
    </div>
  )
}
