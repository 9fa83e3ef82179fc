/** Replaces a list's items with one `<li>` per message, each with `className` when given. */
export function setListItems(list: Element, messages: readonly string[], className?: string): void {
  list.replaceChildren()
  for (const message of messages) appendListItem(list, message, className)
}

/** Appends one `<li>` holding `text` to a list. */
export function appendListItem(list: Element, text: string, className?: string): void {
  const item = document.createElement('li')
  if (className) item.className = className
  item.textContent = text
  list.appendChild(item)
}
