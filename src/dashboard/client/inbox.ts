/**
 * inbox.js: the inbox's and the post page's comment script. Each reply box counts its text on every
 * keystroke with the domain's `countText` and the network's caption counting (the rule and budget
 * the server wrote on the textarea, as the composer's counters count), marks the counter and holds
 * the submit past the budget; the inbox's filters apply as soon as one changes. Without it the
 * forms post as they are and the service refuses an over-long reply in words.
 */
import { countText, type TextCountRule } from '../../domain/text-count'

function setupCounter(area: HTMLTextAreaElement): void {
  const form = area.form
  const output = form?.querySelector<HTMLOutputElement>('[data-counter]')
  const submit = form?.querySelector<HTMLButtonElement>('button[type="submit"]')
  if (!form || !output) return
  let rule: TextCountRule
  try {
    rule = JSON.parse(area.dataset.countRule ?? '') as TextCountRule
  } catch {
    return
  }
  const max = Number(area.dataset.countMax)
  const update = () => {
    const length = countText(area.value, rule)
    const over = length > max
    output.textContent = `${length} / ${max}`
    output.classList.toggle('over', over)
    area.setAttribute('aria-invalid', over ? 'true' : 'false')
    if (submit) submit.disabled = over || area.value.trim() === ''
  }
  area.addEventListener('input', update)
  update()
}

function setupFilters(form: HTMLFormElement): void {
  form.classList.add('is-live')
  for (const select of form.querySelectorAll('select')) {
    select.addEventListener('change', () => form.requestSubmit())
  }
}

for (const area of document.querySelectorAll<HTMLTextAreaElement>('[data-reply-form] textarea[data-count-rule]')) {
  setupCounter(area)
}
const filters = document.querySelector<HTMLFormElement>('[data-inbox-filters]')
if (filters) setupFilters(filters)
