/**
 * The live previews: on every keystroke, the domain preview model (the validator's counting) is run
 * for each ticked account and its card redrawn where it changed; the caption's counters follow.
 * Each update is measured as `composer-preview` (performance.measure) for the keystroke budget.
 */
import { previewOn } from '../../../domain/post-preview'
import { NO_PREVIEW, type PreviewNode, previewCard, previewPostOf } from './preview-tree'
import { toDom } from './dom'
import { mediaOf, readValues, selectedAccounts } from './values'

/** The last tree drawn per card key, so an unchanged card (and its image) is left alone. */
const drawn = new Map<string, string>()

function drawCards(list: HTMLElement, cards: Array<{ key: string; node: PreviewNode }>): void {
  const existing = new Map<string, Element>()
  for (const el of Array.from(list.children)) existing.set(el.getAttribute('data-key') ?? '', el)
  const next: Element[] = []
  for (const { key, node } of cards) {
    const json = JSON.stringify(node)
    let el = existing.get(key)
    if (!el || drawn.get(key) !== json) {
      el = toDom(node) as Element
      el.setAttribute('data-key', key)
      drawn.set(key, json)
    }
    next.push(el)
  }
  const same = next.length === list.children.length && next.every((el, i) => list.children[i] === el)
  if (!same) list.replaceChildren(...next)
}

function updateCounters(form: HTMLFormElement, counts: Map<string, { length: number; limit: number }>): void {
  for (const li of form.querySelectorAll<HTMLElement>('#counters [data-platform]')) {
    const c = counts.get(li.dataset.platform ?? '')
    const out = li.querySelector('output')
    if (out) out.textContent = c ? `${c.length} / ${c.limit}` : '-'
    li.classList.toggle('over', !!c && c.length > c.limit)
    li.classList.toggle('unused', !c)
  }
}

/** Redraws every preview from the form as it is now. */
export function renderPreviews(form: HTMLFormElement, list: HTMLElement): void {
  performance.mark('composer-preview-start')
  const post = previewPostOf(readValues(form), mediaOf(form))
  const counts = new Map<string, { length: number; limit: number }>()
  const cards = selectedAccounts(form).map((a) => {
    const preview = previewOn(a.platform, post)
    const seen = counts.get(a.platform)
    if (!seen) counts.set(a.platform, preview.caption)
    return { key: a.id, node: previewCard(a, preview) }
  })
  drawCards(list, cards.length > 0 ? cards : [{ key: 'none', node: NO_PREVIEW }])
  updateCounters(form, counts)
  performance.measure('composer-preview', 'composer-preview-start')
}

export function setupPreviews(form: HTMLFormElement): void {
  const list = document.getElementById('previews')
  if (!list) return
  const update = () => renderPreviews(form, list)
  for (const type of ['input', 'change', 'media-order', 'media-added']) form.addEventListener(type, update)
  update()
}
