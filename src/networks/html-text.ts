/**
 * A network's HTML (a comment's `body_html`, a post's rendered content) as the plain text the inbox
 * keeps: paragraphs and line breaks as new lines, tags dropped, the entities networks write decoded.
 * The inbox escapes the text again wherever it shows it.
 */
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#38': '&',
  '#038': '&',
  '#34': '"',
  '#39': "'",
  '#039': "'",
  '#8216': '‘',
  '#8217': '’',
  '#8220': '“',
  '#8221': '”',
  '#8211': '–',
  '#8212': '—',
  '#8230': '…',
}

export function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p[^>]*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#?\w+);/g, (all, name: string) => ENTITIES[name.toLowerCase()] ?? all)
    .trim()
}
