/**
 * Tables that never make the page scroll sideways: `TableScroll` scrolls inside its own box (a named,
 * keyboard-focusable region, so keyboard users can scroll it too); give the table `class="cards-on-phone"`
 * and each cell `data-label` to have rows become stacked cards below 640 px instead.
 */
import type { Child } from 'hono/jsx'

export function TableScroll(props: { label: string; children?: Child }) {
  return (
    // A labelled section is a region landmark; tabindex lets keyboard users scroll it.
    <section class="table-scroll" aria-label={props.label} tabindex={0}>
      {props.children}
    </section>
  )
}
