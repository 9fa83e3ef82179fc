/** Preview trees as DOM nodes: every string becomes a text node, never parsed as markup. */
import type { PreviewNode } from './preview-tree'

const SVG = 'http://www.w3.org/2000/svg'

export function toDom(node: PreviewNode | string, inSvg = false): Node {
  if (typeof node === 'string') return document.createTextNode(node)
  const svg = inSvg || node.tag === 'svg'
  const el = svg ? document.createElementNS(SVG, node.tag) : document.createElement(node.tag)
  for (const [name, value] of Object.entries(node.attrs)) el.setAttribute(name, value)
  for (const child of node.children) el.appendChild(toDom(child, svg))
  return el
}
