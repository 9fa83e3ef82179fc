/** The composer form's values as the preview reads them, straight from its controls. */
import type { PreviewMedia } from '../../../domain/post-preview'
import type { PlatformId } from '../../../domain/vocabulary'
import type { PreviewAccount, PreviewValues } from './preview-tree'

const inputs = (form: HTMLFormElement, selector: string) =>
  Array.from(form.querySelectorAll<HTMLInputElement>(selector))
const controlValue = (form: HTMLFormElement, name: string): string => {
  const el = form.elements.namedItem(name)
  return el && 'value' in el ? String(el.value) : ''
}

/** The caption, overrides, thread, media order and options as typed. */
export function readValues(form: HTMLFormElement): PreviewValues {
  const overrides: Record<string, string> = {}
  for (const area of form.querySelectorAll<HTMLTextAreaElement>('textarea[name^="override."]')) {
    if (area.value.trim() !== '') overrides[area.name.slice('override.'.length)] = area.value
  }
  return {
    type: controlValue(form, 'type') || 'IMAGE',
    caption: controlValue(form, 'caption'),
    overrides,
    threadParts: controlValue(form, 'threadParts'),
    mediaIds: inputs(form, 'input[name="mediaIds"]:checked').map((i) => i.value),
    linkUrl: controlValue(form, 'linkUrl').trim(),
    pinTitle: controlValue(form, 'pinTitle'),
    title: controlValue(form, 'title'),
  }
}

/** The board a pinboard account's select shows, by name ("Recipes (public)" reads "Recipes"). */
function boardOf(form: HTMLFormElement, accountId: string): string | undefined {
  const el = form.elements.namedItem(`board.${accountId}`)
  if (el instanceof HTMLSelectElement) {
    const option = el.selectedOptions[0]
    return option && option.value !== '' ? (option.textContent ?? '').replace(/ \([^)]*\)$/, '') : undefined
  }
  return el instanceof HTMLInputElement && el.value.trim() !== '' ? el.value.trim() : undefined
}

/** The accounts ticked, in the picker's order. */
export function selectedAccounts(form: HTMLFormElement): PreviewAccount[] {
  return inputs(form, 'input[name="accountIds"]:checked').map((i) => ({
    id: i.value,
    username: i.dataset.username ?? '',
    platform: (i.dataset.platform ?? 'MICROBLOG_NET') as PlatformId,
    board: boardOf(form, i.value),
    privacy: controlValue(form, `privacy.${i.value}`) || undefined,
  }))
}

/** The library's items the picker lists, by id. */
export function mediaOf(form: HTMLFormElement): Map<string, PreviewMedia> {
  const out = new Map<string, PreviewMedia>()
  for (const i of inputs(form, 'input[name="mediaIds"]')) {
    out.set(i.value, {
      id: i.value,
      type: i.dataset.type === 'VIDEO' ? 'VIDEO' : 'IMAGE',
      url: i.dataset.url ?? '',
      altText: i.dataset.alt || null,
    })
  }
  return out
}
