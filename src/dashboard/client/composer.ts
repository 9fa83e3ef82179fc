/**
 * composer.js: the composer page's script. A preview per ticked account redrawn on every keystroke
 * (the domain preview model: the validator's counting), override tabs and options of the ticked
 * networks only, media order by drag or keyboard, the dry run's errors beside their fields (debounced,
 * none before input; a notice when the check cannot answer), draft autosave, the next free slot.
 */
import { setupAutosave } from './composer/autosave'
import { setupCheck } from './composer/check'
import { setupMediaOrder } from './composer/media-order'
import { setupPreviews } from './composer/preview'
import { setupSchedule } from './composer/schedule'
import { setupSections } from './composer/sections'

const form = document.getElementById('composer')
if (form instanceof HTMLFormElement) {
  form.classList.add('is-live')
  setupSections(form)
  setupMediaOrder(form)
  setupPreviews(form)
  setupCheck(form)
  setupAutosave(form)
  setupSchedule(form)
}
