/**
 * copy.js: a "Copy" button next to a value shown once (a review link's address). The button names
 * the field it copies (`data-copy`); after copying it says so for a moment. Without the script the
 * field is still there, read-only and selected on focus by the browser.
 */
function setupCopy(button: HTMLButtonElement): void {
  const field = document.getElementById(button.dataset.copy ?? '')
  if (!(field instanceof HTMLInputElement)) return
  const label = button.textContent ?? 'Copy'
  button.hidden = false
  button.addEventListener('click', async () => {
    field.select()
    try {
      await navigator.clipboard.writeText(field.value)
      button.textContent = 'Copied'
    } catch {
      button.textContent = 'Press Ctrl+C to copy'
    }
    setTimeout(() => {
      button.textContent = label
    }, 2000)
  })
}

for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) setupCopy(button)
