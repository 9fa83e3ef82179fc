/**
 * calendar.js: drag a scheduled post to another day to move it there at the same time of day. It
 * posts the post's reschedule form (the keyboard way to do the same) and reloads the week.
 */
import { postJson } from './lib/fetch-json'

/** The reschedule answer for a script: ok, or the sentence saying why not. */
interface RescheduleAnswer {
  ok: boolean
  message?: string
}

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

  calendar.addEventListener('dragstart', (e) => {
    const card = closest(e, '[data-post]')
    if (!card || !e.dataTransfer) return
    dragged = card
    e.dataTransfer.effectAllowed = 'move'
    e.dataTransfer.setData('text/plain', card.dataset.post ?? '')
  })
  calendar.addEventListener('dragend', () => {
    dragged = null
    for (const day of calendar.querySelectorAll('.drop-target')) day.classList.remove('drop-target')
  })
  calendar.addEventListener('dragover', (e) => {
    const day = closest(e, '[data-day]')
    if (!day || !dragged) return
    e.preventDefault()
    day.classList.add('drop-target')
  })
  calendar.addEventListener('dragleave', (e) => {
    closest(e, '[data-day]')?.classList.remove('drop-target')
  })
  calendar.addEventListener('drop', async (e) => {
    const day = closest(e, '[data-day]')
    if (!day || !dragged) return
    e.preventDefault()
    const card = dragged
    const form = new URLSearchParams()
    form.set('scheduledAt', `${day.dataset.day}T${card.dataset.time}`)
    say('Moving the post...')
    try {
      const answer = await postJson<RescheduleAnswer>(card.dataset.reschedule ?? '', { form })
      if (answer.body?.ok) window.location.reload()
      else say(answer.body?.message ?? 'The post could not be moved; use its Reschedule form.')
    } catch {
      say('The post could not be moved; use its Reschedule form.')
    }
  })
}

const calendar = document.getElementById('calendar')
if (calendar) start(calendar)
