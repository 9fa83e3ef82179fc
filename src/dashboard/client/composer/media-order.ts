/**
 * The media picker's order (the order `mediaIds` is posted in): drag a tile onto another, or move it
 * with its "earlier" / "later" buttons; the ticked tiles show their place, and a polite status says
 * where a tile went. Every move tells the form (`media-order`), so previews and autosave follow.
 */
const tiles = (picker: HTMLElement) => Array.from(picker.querySelectorAll<HTMLElement>(':scope > .media-tile'))
const nameOf = (tile: HTMLElement) => tile.querySelector('.media-tile-name')?.textContent ?? 'Item'

function numberTiles(picker: HTMLElement): void {
  let n = 0
  for (const tile of tiles(picker)) {
    const checked = tile.querySelector<HTMLInputElement>('input[name="mediaIds"]')?.checked ?? false
    const badge = tile.querySelector('.media-tile-order')
    if (badge) badge.textContent = checked ? String(++n) : ''
  }
}

function moved(picker: HTMLElement, tile: HTMLElement, status: HTMLElement): void {
  numberTiles(picker)
  const place = tiles(picker).indexOf(tile) + 1
  status.textContent = `${nameOf(tile)} moved to place ${place} of ${tiles(picker).length}.`
  picker.closest('form')?.dispatchEvent(new Event('media-order', { bubbles: true }))
}

function moveBy(picker: HTMLElement, tile: HTMLElement, step: number): boolean {
  const all = tiles(picker)
  const to = all.indexOf(tile) + step
  const target = all[to]
  if (!target) return false
  target.insertAdjacentElement(step < 0 ? 'beforebegin' : 'afterend', tile)
  return true
}

function setupDrag(picker: HTMLElement, status: HTMLElement): void {
  let dragged: HTMLElement | null = null
  const clearMarks = () => {
    for (const t of tiles(picker)) t.classList.remove('drop-before', 'drop-after', 'is-dragging')
  }
  const after = (tile: HTMLElement, e: DragEvent) => {
    const box = tile.getBoundingClientRect()
    return e.clientX > box.left + box.width / 2
  }
  picker.addEventListener('dragstart', (e) => {
    dragged = (e.target as Element).closest<HTMLElement>('.media-tile')
    if (!dragged || !e.dataTransfer) return
    e.dataTransfer.effectAllowed = 'move'
    e.dataTransfer.setData('text/plain', dragged.dataset.mediaId ?? '')
    dragged.classList.add('is-dragging')
  })
  picker.addEventListener('dragover', (e) => {
    const tile = (e.target as Element).closest<HTMLElement>('.media-tile')
    if (!dragged || !tile || tile === dragged) return
    e.preventDefault()
    for (const t of tiles(picker)) t.classList.remove('drop-before', 'drop-after')
    tile.classList.add(after(tile, e) ? 'drop-after' : 'drop-before')
  })
  picker.addEventListener('drop', (e) => {
    const tile = (e.target as Element).closest<HTMLElement>('.media-tile')
    if (!dragged || !tile || tile === dragged) return
    e.preventDefault()
    tile.insertAdjacentElement(after(tile, e) ? 'afterend' : 'beforebegin', dragged)
    const was = dragged
    clearMarks()
    moved(picker, was, status)
  })
  picker.addEventListener('dragend', () => {
    clearMarks()
    dragged = null
  })
}

interface AddedAsset {
  id: string
  type: string
  url: string
  altText: string | null
}

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string>, text = '') => {
  const node = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v)
  if (text) node.textContent = text
  return node
}

/** A tile like the server's (compose-media.tsx) for an item the upload just added, ticked. */
function tileFor(asset: AddedAsset): HTMLLIElement {
  const name = asset.altText || asset.id
  const li = el('li', { class: 'media-tile', 'data-media-id': asset.id })
  const tick = el('input', {
    type: 'checkbox',
    name: 'mediaIds',
    value: asset.id,
    id: `media-${asset.id}`,
    'data-type': asset.type,
    'data-url': asset.url,
    'data-alt': asset.altText ?? '',
  })
  tick.checked = true
  const label = el('label', { for: tick.id })
  label.append(
    asset.type === 'IMAGE'
      ? el('img', { src: asset.url, alt: asset.altText ?? '', width: '96', height: '96' })
      : el('span', { class: 'media-tile-video', 'aria-hidden': 'true' }, 'Video'),
    el('span', { class: 'media-tile-name' }, name),
  )
  const tools = el('span', { class: 'media-tile-tools' })
  tools.append(
    el(
      'button',
      { type: 'button', class: 'js-only icon-button', 'data-move': '-1', 'aria-label': `Move ${name} earlier` },
      '←',
    ),
    el(
      'button',
      { type: 'button', class: 'js-only icon-button', 'data-move': '1', 'aria-label': `Move ${name} later` },
      '→',
    ),
  )
  li.append(tick, label, el('span', { class: 'media-tile-order', 'aria-hidden': 'true' }), tools)
  return li
}

export function setupMediaOrder(form: HTMLFormElement): void {
  const picker = form.querySelector<HTMLElement>('#media-picker')
  if (!picker) return
  const status = document.createElement('p')
  status.className = 'visually-hidden'
  status.setAttribute('role', 'status')
  picker.insertAdjacentElement('afterend', status)
  for (const tile of tiles(picker)) tile.draggable = true
  picker.addEventListener('click', (e) => {
    const button = (e.target as Element).closest<HTMLButtonElement>('[data-move]')
    const tile = button?.closest<HTMLElement>('.media-tile')
    if (!button || !tile) return
    if (moveBy(picker, tile, Number(button.dataset.move))) {
      moved(picker, tile, status)
      button.focus()
    }
  })
  // A tile ticked or unticked joins the end of the ticked ones: the chosen items lead, in the order chosen.
  picker.addEventListener('change', (e) => {
    const tile = (e.target as Element).closest<HTMLElement>('.media-tile')
    if (tile) {
      const ticked = tiles(picker).filter((t) => t !== tile && t.querySelector<HTMLInputElement>('input:checked'))
      const last = ticked.at(-1)
      if (last) last.insertAdjacentElement('afterend', tile)
      else picker.prepend(tile)
      tile.querySelector('input')?.focus()
    }
    numberTiles(picker)
  })
  form.addEventListener('media-added', (e) => {
    const asset = (e as CustomEvent<AddedAsset | undefined>).detail
    const added = asset ? picker.querySelector(`#media-${CSS.escape(asset.id)}`)?.closest('li') : null
    if (asset && added) added.replaceWith(tileFor(asset))
  })
  // A tile the upload adds can be dragged too.
  new MutationObserver(() => {
    for (const tile of tiles(picker)) tile.draggable = true
    numberTiles(picker)
  }).observe(picker, { childList: true })
  setupDrag(picker, status)
  numberTiles(picker)
}
