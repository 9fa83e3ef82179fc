/**
 * notes.js: the @mention picker of a note's text box. Typing `@` and a few letters opens the list
 * of members whose name starts with them (a combobox's listbox: Arrow keys move, Enter or Tab
 * picks, Escape closes; a click picks too). Picking writes `@Name ` into the text, which the server
 * reads as the mention; without this script the same text typed by hand works alike.
 */

interface Candidate {
  option: HTMLElement
  name: string
}

/** The `@word` being typed just before the caret, or null when the caret is not in one. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret)
  const at = before.lastIndexOf('@')
  if (at < 0) return null
  if (at > 0 && !/\s/.test(before[at - 1] ?? '')) return null
  const query = before.slice(at + 1)
  if (query.length > 40 || /[\n@]/.test(query) || /\s\s/.test(query)) return null
  return { start: at, query }
}

function attach(input: HTMLTextAreaElement, list: HTMLElement): void {
  const options = [...list.querySelectorAll<HTMLElement>('[role="option"]')].map((option) => ({
    option,
    name: option.dataset.name ?? '',
  }))
  let shown: Candidate[] = []
  let active = 0
  input.setAttribute('role', 'combobox')
  input.setAttribute('aria-autocomplete', 'list')
  input.setAttribute('aria-controls', list.id)
  input.setAttribute('aria-expanded', 'false')

  const close = () => {
    list.hidden = true
    shown = []
    input.setAttribute('aria-expanded', 'false')
    input.removeAttribute('aria-activedescendant')
  }
  const mark = () => {
    shown.forEach((c, i) => c.option.setAttribute('aria-selected', i === active ? 'true' : 'false'))
    const current = shown[active]
    if (current) input.setAttribute('aria-activedescendant', current.option.id)
  }
  const update = () => {
    const found = mentionQuery(input.value, input.selectionStart ?? input.value.length)
    if (!found) return close()
    const q = found.query.toLowerCase()
    shown = options.filter((c) => c.name.toLowerCase().startsWith(q) || c.name.toLowerCase().includes(` ${q}`))
    for (const c of options) c.option.hidden = !shown.includes(c)
    if (shown.length === 0) return close()
    active = Math.min(active, shown.length - 1)
    list.hidden = false
    input.setAttribute('aria-expanded', 'true')
    mark()
  }
  const pick = (c: Candidate) => {
    const caret = input.selectionStart ?? input.value.length
    const found = mentionQuery(input.value, caret)
    if (!found) return close()
    const insert = `@${c.name} `
    input.value = input.value.slice(0, found.start) + insert + input.value.slice(caret)
    const at = found.start + insert.length
    input.setSelectionRange(at, at)
    close()
    input.focus()
  }

  input.addEventListener('input', () => {
    active = 0
    update()
  })
  input.addEventListener('keydown', (event) => {
    if (list.hidden || shown.length === 0) return
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      active = (active + (event.key === 'ArrowDown' ? 1 : shown.length - 1)) % shown.length
      mark()
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      const current = shown[active]
      if (!current) return
      event.preventDefault()
      pick(current)
    } else if (event.key === 'Escape') {
      event.preventDefault()
      close()
    }
  })
  input.addEventListener('blur', () => window.setTimeout(close, 150))
  list.addEventListener('mousedown', (event) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>('[role="option"]') : null
    const c = options.find((o) => o.option === target)
    if (!c) return
    event.preventDefault()
    pick(c)
  })
}

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-notes]')) {
  const input = form.querySelector<HTMLTextAreaElement>('[data-mention-input]')
  const list = form.querySelector<HTMLElement>('[role="listbox"]')
  if (input && list) attach(input, list)
}
