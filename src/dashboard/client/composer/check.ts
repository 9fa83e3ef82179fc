/**
 * Errors and warnings beside their fields, from the composer's check (the API's dry run), debounced.
 * No error before input: a field's problems are shown once the member has changed that field, or
 * once the form has been submitted (a page the server refused shows them all). When the check
 * cannot answer, a notice says so instead of leaving old messages standing as if current.
 */
import { type CheckAnswer, checkProblemText } from '../lib/composer-check'
import { setListItems, appendListItem } from '../lib/dom'
import { postJson } from '../lib/fetch-json'

/** The error list (`data-field-errors`) a form control's problems go to. */
export function fieldOfControl(name: string): string {
  const [head, key] = name.split('.')
  if (key && (head === 'override' || head === 'board' || head === 'privacy')) return `${head}-${key}`
  return head ?? name
}

/** The form's notice for a check that did not answer, made at its top. */
function problemNotice(form: HTMLFormElement): HTMLElement {
  const notice = document.createElement('p')
  notice.dataset.checkProblem = ''
  notice.className = 'check-problem'
  notice.setAttribute('role', 'status')
  notice.hidden = true
  form.prepend(notice)
  return notice
}

export function setupCheck(form: HTMLFormElement): void {
  const url = form.dataset.check
  if (!url) return
  const touched = new Set<string>()
  // A page the server refused already shows every problem: keep showing them as they change.
  let all = form.querySelector('[data-field-errors] li') !== null
  let timer: ReturnType<typeof setTimeout> | undefined
  let sequence = 0
  const notice = problemNotice(form)
  const sayProblem = (text: string | null) => {
    notice.textContent = text ?? ''
    notice.hidden = text === null
  }

  const show = (answer: CheckAnswer) => {
    const warnings = new Map<string, string[]>()
    for (const w of answer.warnings ?? []) warnings.set(w.field, [...(warnings.get(w.field) ?? []), w.message])
    for (const list of form.querySelectorAll<HTMLElement>('[data-field-errors]')) {
      const field = list.dataset.fieldErrors ?? ''
      const shown = all || touched.has(field)
      const errors = shown ? (answer.fields?.[field] ?? []) : []
      setListItems(list, errors, 'error')
      for (const message of shown ? (warnings.get(field) ?? []) : []) appendListItem(list, message, 'warning')
      const control = form.querySelector(`[aria-describedby~="errors-${field}"]:not([type="checkbox"])`)
      control?.setAttribute('aria-invalid', errors.length > 0 ? 'true' : 'false')
    }
  }
  const check = async () => {
    const mine = ++sequence
    const fields = new URLSearchParams()
    for (const [name, value] of new FormData(form)) if (typeof value === 'string') fields.append(name, value)
    try {
      const answer = await postJson<CheckAnswer>(url, { form: fields, csrfScope: form })
      if (mine !== sequence) return
      if (!answer.ok || !answer.body) return sayProblem(checkProblemText(answer.status, answer.retryAfter))
      sayProblem(null)
      show(answer.body)
    } catch {
      if (mine === sequence) sayProblem(checkProblemText(null, null))
    }
  }
  const later = (e: Event) => {
    const target = e.target as HTMLInputElement
    if (target.name) touched.add(fieldOfControl(target.name))
    if (e.type === 'media-order' || e.type === 'media-added') touched.add('mediaIds')
    clearTimeout(timer)
    timer = setTimeout(check, 400)
  }
  for (const type of ['input', 'change', 'media-order', 'media-added']) form.addEventListener(type, later)
  form.addEventListener('submit', () => {
    all = true
  })
  if (all) void check()
}
