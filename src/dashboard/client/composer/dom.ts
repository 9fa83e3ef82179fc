/** Preview trees as DOM nodes: every string becomes a text node, never parsed as markup. */
import type { PreviewNode } from '../../pages/compose-preview'

export function toDom(node: PreviewNode | string): Node {
  if (typeof node === 'string') return document.createTextNode(node)
  const el = document.createElement(node.tag)
  for (const [name, value] of Object.entries(node.attrs)) el.setAttribute(name, value)
  for (const child of node.children) el.appendChild(toDom(child))
  return el
}

/** The CSRF token the page's form carries. */
export function csrfOf(form: HTMLFormElement): string {
  const field = form.querySelector<HTMLInputElement>('input[name="_csrf"]')
  return field ? field.value : ''
}

/** Posts the form as the browser would (urlencoded), with the CSRF header; the JSON answer or null. */
export async function postForm<T>(url: string, form: HTMLFormElement): Promise<{ status: number; body: T } | null> {
  const body = new URLSearchParams()
  for (const [k, v] of new FormData(form)) if (typeof v === 'string') body.append(k, v)
  try {
    const res = await fetch(url, {
      method: 'POST',
      body,
      credentials: 'same-origin',
      headers: { 'X-CSRF-Token': csrfOf(form), Accept: 'application/json' },
    })
    return { status: res.status, body: (await res.json()) as T }
  } catch {
    return null
  }
}
