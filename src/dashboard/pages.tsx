/** Small pieces every dashboard page uses: messages, field errors, the pages for 400/403/404 and public forms. */
import type { Context } from 'hono'
import type { Child } from 'hono/jsx'
import { describeProblem } from '../http/input-guard'
import { Brand, Document } from './layout'
import { ErrorView } from './ui/error-view'

/** A message above a form: `error` for what went wrong, `notice` for what was done. */
export function Message(props: { kind: 'error' | 'notice'; text?: string | null }) {
  if (!props.text) return null
  return (
    <p class={props.kind === 'error' ? 'alert' : 'notice'} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.text}
    </p>
  )
}

/** A labelled input; `error` is shown next to it and tied to it for screen readers. */
export function Field(props: {
  name: string
  label: string
  type?: string
  value?: string
  autocomplete?: string
  required?: boolean
  /** A line under the field saying what it takes (read out with it). */
  hint?: string
  error?: string | undefined
}) {
  const id = `f-${props.name}`
  const described = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ')
  return (
    <>
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value ?? ''}
        autocomplete={props.autocomplete}
        required={props.required ?? true}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={described || undefined}
      />
      {props.hint ? (
        <p id={`${id}-hint`} class="hint">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={`${id}-error`} class="error">
          {props.error}
        </p>
      ) : null}
    </>
  )
}

export const Csrf = (props: { token: string }) => <input type="hidden" name="_csrf" value={props.token} />

/** A page outside any workspace (sign-in, sign-up, invitation, errors). */
export function PublicPage(props: { title: string; children?: Child }) {
  return (
    <Document title={props.title}>
      <header class="public-top">
        <Brand />
      </header>
      <main id="main" class="narrow">
        <h1>{props.title}</h1>
        {props.children}
      </main>
    </Document>
  )
}

/** 404 as a page: the same for a page that does not exist and one of a workspace the user is not in. */
export const notFoundPage = (c: Context) =>
  c.html(
    <ErrorView status={404} title="Page not found" links={[['Go to your workspace', '/app']]}>
      <p>There is no such page, or it is not in a workspace you belong to.</p>
      <p>Check the address, or start again from your workspace.</p>
    </ErrorView>,
    404,
  )

/** 403 as a page: a form whose CSRF token is missing or stale, or an action the member's role may not take. */
export const forbiddenPage = (c: Context, reason: string) =>
  c.html(
    <ErrorView status={403} title="Not allowed" links={backLinks(c)}>
      <p role="alert">{reason}</p>
    </ErrorView>,
    403,
  )

/**
 * Where "Go back" leads: the page the request came from when it is one of ours (the form the member
 * sent), else the dashboard. Only the path of a same-origin Referer is used: never another site.
 */
export function backLinks(c: Context): Array<[string, string]> {
  const home: [string, string] = ['Back to the dashboard', '/app']
  const referer = c.req.header('referer')
  if (!referer) return [home]
  try {
    const from = new URL(referer)
    if (from.origin !== new URL(c.req.url).origin || !from.pathname.startsWith('/app')) return [home]
    return [['Go back to the form', `${from.pathname}${from.search}`], home]
  } catch {
    return [home]
  }
}

/** 400 as a page: a form or address the dashboard cannot take as sent (text it cannot store, a body it cannot read). */
export const refusedInputPage = (c: Context, problem: { path: string; message: string }) =>
  c.html(
    <ErrorView status={400} title="Not accepted" links={backLinks(c)}>
      <p role="alert">{describeProblem(problem)}</p>
      <p>Nothing was saved. Go back, correct that field and send the form again.</p>
    </ErrorView>,
    400,
  )
