/**
 * The dashboard's error pages (404, 403, 429, 400, 500): one frame, the status in words, what
 * happened, what to do next and a way back; the request id where we can find the error in our logs.
 * Used by pages.tsx (404, 403, the refused-input 400) and error-page.tsx (whatever a page throws).
 * Styles: styles/first-run.ts.
 */
import type { Child } from 'hono/jsx'
import { Brand, Document } from '../layout'
import { ButtonLink } from './button'

/** A wait in words, rounded up: "45 seconds", "2 minutes", "1 hour and 5 minutes". */
export function waitInWords(seconds: number): string {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  const sec = Math.max(1, Math.ceil(seconds))
  if (sec < 60) return unit(sec, 'second')
  const minutes = Math.ceil(sec / 60)
  if (minutes < 60) return unit(minutes, 'minute')
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  return rest === 0 ? unit(hours, 'hour') : `${unit(hours, 'hour')} and ${unit(rest, 'minute')}`
}

export interface ErrorViewProps {
  status: number
  title: string
  /** Where to go from here: `[label, href]`, the first one the main way out. */
  links?: ReadonlyArray<readonly [string, string]>
  /** The request id (a 500, or any error a member may write to us about). */
  requestId?: string
  children?: Child
}

/** An error page: status and title, the explanation (children), the ways out, the request id. */
export function ErrorView(props: ErrorViewProps) {
  const links = props.links ?? [['Back to the dashboard', '/app']]
  return (
    <Document title={props.title}>
      <header class="public-top">
        <Brand />
      </header>
      <main id="main" class="narrow error-view" aria-labelledby="error-title">
        <p class="error-view-status">Error {props.status}</p>
        <h1 id="error-title">{props.title}</h1>
        {props.children}
        <div class="actions">
          {links.map(([label, href], i) => (
            <ButtonLink href={href} variant={i === 0 ? 'primary' : 'secondary'}>
              {label}
            </ButtonLink>
          ))}
        </div>
        {props.requestId ? (
          <p class="error-view-request">
            Request id: <code>{props.requestId}</code>. Quote it if you write to us about this.
          </p>
        ) : null}
      </main>
    </Document>
  )
}
