/**
 * Draft autosave to the server, through the same service as the API's drafts: a moment after the
 * member stops writing, once at least one account is ticked and there is something to keep. The
 * first save creates the draft; the form then edits that draft (its address replaces the page's),
 * so later saves and the final submit never make a second copy. Opening the composer saves nothing.
 */
import { postJson } from '../lib/fetch-json'

interface AutosaveAnswer {
  saved: boolean
  editUrl?: string
  autosaveUrl?: string
  savedAt?: string
  fields?: Record<string, string[]>
}

export const AUTOSAVE_DELAY_MS = 1500

function worthSaving(form: HTMLFormElement): boolean {
  if (!form.querySelector('input[name="accountIds"]:checked')) return false
  if (form.querySelector('input[name="mediaIds"]:checked')) return true
  return Array.from(form.querySelectorAll<HTMLTextAreaElement>('textarea')).some((t) => t.value.trim() !== '')
}

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })

export function setupAutosave(form: HTMLFormElement): void {
  const status = document.getElementById('autosave-status')
  if (!form.dataset.autosave || !status) return
  let timer: ReturnType<typeof setTimeout> | undefined
  let saving = false
  let again = false
  let submitting = false

  const save = async () => {
    const url = form.dataset.autosave
    if (submitting || !url || !worthSaving(form)) return
    if (saving) {
      again = true
      return
    }
    saving = true
    status.textContent = 'Saving draft…'
    const fields = new URLSearchParams()
    for (const [name, value] of new FormData(form)) if (typeof value === 'string') fields.append(name, value)
    const answer = await postJson<AutosaveAnswer>(url, { form: fields, csrfScope: form }).catch(() => null)
    saving = false
    if (submitting) return
    const body = answer?.body
    if (body?.saved && body.editUrl && body.autosaveUrl) {
      form.action = body.editUrl
      form.dataset.autosave = body.autosaveUrl
      if (window.location.pathname !== body.editUrl) window.history.replaceState(null, '', body.editUrl)
      status.textContent = `Draft saved at ${timeOf(body.savedAt ?? new Date().toISOString())}.`
    } else if (answer?.status === 429) {
      const wait = answer.retryAfter ?? 10
      status.textContent = `Draft not saved yet: too many requests, trying again in ${wait} s.`
      clearTimeout(timer)
      timer = setTimeout(save, wait * 1000)
    } else {
      const first = Object.values(body?.fields ?? {}).flat()[0]
      status.textContent = first
        ? `Draft not saved yet: ${first}`
        : 'Draft not saved: the connection failed. Retrying when you type.'
    }
    if (again) {
      again = false
      void save()
    }
  }
  const later = () => {
    clearTimeout(timer)
    timer = setTimeout(save, AUTOSAVE_DELAY_MS)
  }
  for (const type of ['input', 'change', 'media-order', 'media-added']) form.addEventListener(type, later)
  form.addEventListener('submit', () => {
    submitting = true
    clearTimeout(timer)
  })
}
