/**
 * calendar.js: drag a post to another hour of the week (it keeps its minutes) or another day of
 * the month (it keeps its time of day). The drop posts the post's reschedule form, the keyboard
 * way to do the same, with the session's CSRF token, and the page is drawn again from the server.
 */
import { dropTime } from './calendar/drop-time'
import { postJson } from './lib/fetch-json'

/** The reschedule answer for a script: ok, or the sentence saying why not. */
interface RescheduleAnswer {
  ok: boolean
  message?: string
}

const DROP_PLACES = '.cal-slot, .cal-mday'
const FALLBACK = 'The post could not be moved; use its Move form.'

/** The element matching `selector` at or above an event's target. */
function closest(event: Event, selector: string): HTMLElement | null {
  const target = event.target
  return target instanceof Element ? target.closest<HTMLElement>(selector) : null
}

function start(calendar: HTMLElement): void {
  const status = document.getElementById('calendar-status')
  const say = (text: string) => {
    if (status) status.textContent = text
  }
  let dragged: HTMLElement | null = null
  let over: HTMLElement | null = null
  const mark = (place: HTMLElement | null) => {
    if (over === place) return
    over?.classList.remove('cal-drop')
    place?.classList.add('cal-drop')
    over = place
  }

  calendar.addEventListener('dragstart', (e) => {
    const card = closest(e, '[data-post]')
    if (!card || !e.dataTransfer) return
    dragged = card
    card.classList.add('is-dragging')
    e.dataTransfer.effectAllowed = 'move'
    e.dataTransfer.setData('text/plain', card.dataset.post ?? '')
  })
  calendar.addEventListener('dragend', () => {
    dragged?.classList.remove('is-dragging')
    dragged = null
    mark(null)
  })
  calendar.addEventListener('dragover', (e) => {
    const place = closest(e, DROP_PLACES)
    if (!place || !dragged) return
    e.preventDefault()
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'move'
    mark(place)
  })
  calendar.addEventListener('drop', (e) => {
    const place = closest(e, DROP_PLACES)
    const card = dragged
    if (!place || !card) return
    e.preventDefault()
    mark(null)
    const from = card.closest<HTMLElement>('[data-day]')?.dataset.day ?? ''
    const at = dropTime(place.dataset, { day: from, time: card.dataset.time ?? '' })
    if (at) void move(card, place, at)
  })

  async function move(card: HTMLElement, place: HTMLElement, at: string) {
    say('Moving the post…')
    // Shown where it was dropped at once (back where it was if refused); the page drawn again says where it is.
    const home = { parent: card.parentElement, next: card.nextSibling }
    place.querySelector('ul')?.append(card)
    const refused = (message: string) => {
      home.parent?.insertBefore(card, home.next)
      say(message)
    }
    try {
      const form = new URLSearchParams({ scheduledAt: at })
      const answer = await postJson<RescheduleAnswer>(card.dataset.reschedule ?? '', { form })
      if (answer.body?.ok) window.location.reload()
      else refused(answer.body?.message ?? FALLBACK)
    } catch {
      refused(FALLBACK)
    }
  }
}

const calendar = document.getElementById('calendar')
const view = calendar?.dataset.view
if (calendar && (view === 'week' || view === 'month')) start(calendar)
