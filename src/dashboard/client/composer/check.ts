/**
 * Errors and warnings beside their fields, from the composer's check (the API's dry run), debounced.
 * No error before input: a field's problems are shown once the member has changed that field, or
 * once the form has been submitted (a page the server refused shows them all).
 */
import { postForm } from './dom'

interface CheckAnswer {
  valid: boolean
  fields: Record<string, string[]>
  warnings: Array<{ field: string; message: string }>
}

/** The error list (`data-field-errors`) a form control's problems go to. */
export function fieldOfControl(name: string): string {
  const [head, key] = name.split('.')
  if (key && (head === 'override' || head === 'board' || head === 'privacy')) return `${head}-${key}`
  return head ?? name
}

function fill(list: HTMLElement, errors: string[], warnings: string[]): void {
  const items = [...errors.map((m) => ({ m, kind: 'error' })), ...warnings.map((m) => ({ m, kind: 'warning' }))].map(
    ({ m, kind }) => {
      const li = document.createElement('li')
      li.className = kind
      li.textContent = m
      return li
    },
  )
  list.replaceChildren(...items)
}

export function setupCheck(form: HTMLFormElement): void {
  const url = form.dataset.check
  if (!url) return
  const touched = new Set<string>()
  // A page the server refused already shows every problem: keep showing them as they change.
  let all = form.querySelector('[data-field-errors] li') !== null
  let timer: ReturnType<typeof setTimeout> | undefined
  let sequence = 0

  const show = (answer: CheckAnswer) => {
    const warnings = new Map<string, string[]>()
    for (const w of answer.warnings) warnings.set(w.field, [...(warnings.get(w.field) ?? []), w.message])
    for (const list of form.querySelectorAll<HTMLElement>('[data-field-errors]')) {
      const field = list.dataset.fieldErrors ?? ''
      const shown = all || touched.has(field)
      const errors = shown ? (answer.fields[field] ?? []) : []
      fill(list, errors, shown ? (warnings.get(field) ?? []) : [])
      const control = form.querySelector(`[aria-describedby~="errors-${field}"]`)
      if (control && field !== 'accountIds') control.setAttribute('aria-invalid', errors.length > 0 ? 'true' : 'false')
    }
  }
  const check = async () => {
    const mine = ++sequence
    const answer = await postForm<CheckAnswer>(url, form)
    if (answer && answer.status === 200 && mine === sequence) show(answer.body)
  }
  const later = (e: Event) => {
    const target = e.target as HTMLInputElement
    if (target.name) touched.add(fieldOfControl(target.name))
    if (e.type === 'media-order') touched.add('mediaIds')
    clearTimeout(timer)
    timer = setTimeout(check, 400)
  }
  form.addEventListener('input', later)
  form.addEventListener('change', later)
  form.addEventListener('media-order', later)
  form.addEventListener('submit', () => {
    all = true
  })
  if (all) void check()
}
