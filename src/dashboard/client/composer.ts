/**
 * composer.js: as the member types, posts the form to the composer's check (the API's dry run) and
 * shows each network's count against its budget, and the errors and warnings beside their fields.
 * When the check cannot answer (a 500, a 429, no network) it says so beside the form instead of
 * leaving the last counts standing as if they were current.
 */
import { postJson } from './lib/fetch-json'
import { type CheckAnswer, type CheckCount, checkProblemText, tightestCounts } from './lib/composer-check'
import { appendListItem, setListItems } from './lib/dom'

function showCounts(form: HTMLFormElement, counts: Map<string, CheckCount>): void {
  for (const item of form.querySelectorAll<HTMLElement>('[data-platform]')) {
    const count = counts.get(item.dataset.platform ?? '')
    const output = item.querySelector('output')
    if (output) output.textContent = count ? `${count.length} / ${count.limit} (as ${count.format})` : '-'
    item.classList.toggle('over', !!count && count.length > count.limit)
    item.classList.toggle('unused', !count)
  }
}

function showFieldMessages(form: HTMLFormElement, answer: CheckAnswer): void {
  const warningsByField = new Map<string, string[]>()
  for (const warning of answer.warnings ?? []) {
    warningsByField.set(warning.field, [...(warningsByField.get(warning.field) ?? []), warning.message])
  }
  for (const list of form.querySelectorAll<HTMLElement>('[data-field-errors]')) {
    const field = list.dataset.fieldErrors ?? ''
    setListItems(list, answer.fields?.[field] ?? [], 'error')
    for (const message of warningsByField.get(field) ?? []) appendListItem(list, message, 'warning')
  }
}

/** The form's notice for a check that did not answer: the page's `[data-check-problem]`, else one made at its top. */
function problemNotice(form: HTMLFormElement): HTMLElement {
  const existing = form.querySelector<HTMLElement>('[data-check-problem]')
  if (existing) return existing
  const notice = document.createElement('p')
  notice.dataset.checkProblem = ''
  notice.className = 'check-problem'
  notice.setAttribute('role', 'status')
  notice.hidden = true
  form.prepend(notice)
  return notice
}

function start(form: HTMLFormElement, checkUrl: string): void {
  const notice = problemNotice(form)
  const sayProblem = (text: string | null) => {
    notice.textContent = text ?? ''
    notice.hidden = text === null
    form.classList.toggle('check-stale', text !== null)
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  let sequence = 0
  const check = async () => {
    const mine = ++sequence
    const fields = new URLSearchParams()
    for (const [name, value] of new FormData(form)) if (typeof value === 'string') fields.append(name, value)
    try {
      const answer = await postJson<CheckAnswer>(checkUrl, { form: fields, csrfScope: form })
      if (mine !== sequence) return
      if (!answer.ok || !answer.body) return sayProblem(checkProblemText(answer.status, answer.retryAfter))
      sayProblem(null)
      showCounts(form, tightestCounts(answer.body.counts ?? []))
      showFieldMessages(form, answer.body)
    } catch {
      if (mine === sequence) sayProblem(checkProblemText(null, null))
    }
  }
  const later = () => {
    clearTimeout(timer)
    timer = setTimeout(check, 300)
  }
  form.addEventListener('input', later)
  form.addEventListener('change', later)
  form.addEventListener('media-added', later)
  void check()
}

const form = document.getElementById('composer')
if (form instanceof HTMLFormElement && form.dataset.check) start(form, form.dataset.check)
