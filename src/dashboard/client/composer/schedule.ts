/** "Next free slot": puts the queue's next free time (the server's, in the workspace zone) into the time field. */
export function setupSchedule(form: HTMLFormElement): void {
  const button = form.querySelector<HTMLButtonElement>('#next-free-slot')
  const input = form.querySelector<HTMLInputElement>('#scheduledAt')
  if (!button || !input) return
  button.addEventListener('click', () => {
    input.value = button.dataset.slot ?? ''
    input.dispatchEvent(new Event('input', { bubbles: true }))
    input.dispatchEvent(new Event('change', { bubbles: true }))
    input.focus()
  })
}
