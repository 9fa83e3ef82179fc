/** Buttons and links that look like buttons. Every one is at least `--touch` (44 px) tall. */
import type { Child } from 'hono/jsx'

/** How strongly a button asks to be pressed: one `primary` per view, `danger` for what cannot be undone. */
export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost'

const variantClass = (variant: ButtonVariant = 'primary', extra?: string) =>
  ['btn', variant === 'primary' ? '' : `btn-${variant}`, extra ?? ''].filter(Boolean).join(' ')

export interface ButtonProps {
  variant?: ButtonVariant
  type?: 'submit' | 'button' | 'reset'
  name?: string
  value?: string
  /** Extra classes, e.g. `btn-small` or `btn-block`. */
  class?: string
  /** The form this button submits when it sits outside it. */
  form?: string
  formaction?: string
  disabled?: boolean
  'aria-label'?: string
  children?: Child
}

/** A `<button>` (submit by default). */
export function Button(props: ButtonProps) {
  const { variant, class: extra, type = 'submit', children, ...rest } = props
  return (
    <button {...rest} type={type} class={variantClass(variant, extra)}>
      {children}
    </button>
  )
}

/** A link styled as a button: navigation that looks like an action (e.g. "New post"). */
export function ButtonLink(props: { href: string; variant?: ButtonVariant; class?: string; children?: Child }) {
  return (
    <a href={props.href} class={variantClass(props.variant, props.class)}>
      {props.children}
    </a>
  )
}
