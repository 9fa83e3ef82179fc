/**
 * What applies to the ticked accounts only: the override tabs of their networks (one panel shown,
 * arrow keys move between tabs), and the options whose `data-platforms` / `data-accounts` name them.
 */
import { selectedAccounts } from './values'

let active: string | null = null

function selectTab(form: HTMLFormElement, platform: string | null, focus = false): void {
  active = platform
  for (const tab of form.querySelectorAll<HTMLButtonElement>('.override-tab')) {
    const on = tab.dataset.platform === platform
    tab.setAttribute('aria-selected', on ? 'true' : 'false')
    tab.tabIndex = on ? 0 : -1
    if (on && focus) tab.focus()
  }
  for (const panel of form.querySelectorAll<HTMLElement>('.override-panel')) {
    panel.classList.toggle('is-active', panel.dataset.platform === platform)
  }
}

/** Shows the tabs, panels and options of the ticked accounts' networks, hides the rest. */
export function applySelection(form: HTMLFormElement): void {
  const accounts = selectedAccounts(form)
  const platforms = new Set<string>(accounts.map((a) => a.platform))
  const ids = new Set(accounts.map((a) => a.id))
  const visible: string[] = []
  for (const tab of form.querySelectorAll<HTMLButtonElement>('.override-tab')) {
    const on = platforms.has(tab.dataset.platform ?? '')
    tab.hidden = !on
    if (on) visible.push(tab.dataset.platform ?? '')
    const area = form.querySelector<HTMLTextAreaElement>(`#override-${tab.dataset.platform}`)
    tab.classList.toggle('has-text', !!area && area.value.trim() !== '')
  }
  for (const panel of form.querySelectorAll<HTMLElement>('.override-panel')) {
    panel.hidden = !platforms.has(panel.dataset.platform ?? '')
  }
  const overrides = form.querySelector<HTMLElement>('.overrides')
  if (overrides) overrides.hidden = visible.length === 0
  if (active === null || !visible.includes(active)) selectTab(form, visible[0] ?? null)
  for (const el of form.querySelectorAll<HTMLElement>('[data-platforms]')) {
    el.hidden = !(el.dataset.platforms ?? '').split(' ').some((p) => platforms.has(p))
  }
  for (const el of form.querySelectorAll<HTMLElement>('[data-accounts]')) {
    el.hidden = !ids.has(el.dataset.accounts ?? '')
  }
  for (const fieldset of form.querySelectorAll<HTMLElement>('.network-options')) {
    fieldset.hidden = !Array.from(fieldset.querySelectorAll<HTMLElement>('[data-platforms], [data-accounts]')).some(
      (el) => !el.hidden,
    )
  }
}

function onTabKey(form: HTMLFormElement, e: KeyboardEvent): void {
  const tabs = Array.from(form.querySelectorAll<HTMLButtonElement>('.override-tab:not([hidden])'))
  const at = tabs.findIndex((t) => t.dataset.platform === active)
  const to =
    e.key === 'ArrowRight'
      ? (at + 1) % tabs.length
      : e.key === 'ArrowLeft'
        ? (at - 1 + tabs.length) % tabs.length
        : e.key === 'Home'
          ? 0
          : e.key === 'End'
            ? tabs.length - 1
            : -1
  if (to < 0 || tabs.length === 0) return
  e.preventDefault()
  selectTab(form, tabs[to]?.dataset.platform ?? null, true)
}

export function setupSections(form: HTMLFormElement): void {
  const list = form.querySelector<HTMLElement>('.override-tabs')
  list?.addEventListener('click', (e) => {
    const tab = (e.target as Element).closest<HTMLButtonElement>('.override-tab')
    if (tab) selectTab(form, tab.dataset.platform ?? null)
  })
  list?.addEventListener('keydown', (e) => onTabKey(form, e))
  // A refused override opens on its own tab.
  const refused = form
    .querySelector<HTMLElement>('.override-panel [data-field-errors] li')
    ?.closest<HTMLElement>('.override-panel')
  if (refused) active = refused.dataset.platform ?? null
  form.addEventListener('change', () => applySelection(form))
  form.addEventListener('input', (e) => {
    if ((e.target as Element).matches('textarea[name^="override."]')) applySelection(form)
  })
  applySelection(form)
  if (active !== null) selectTab(form, active)
}
