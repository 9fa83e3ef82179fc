/** The words of activity summaries: times in UTC ("3 Dec 2026 09:30 UTC"), lists, field names. */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** An instant as a summary writes it; a summary is stored, so it names UTC rather than a viewer's zone. */
export function summaryTime(at: Date | string): string {
  const d = typeof at === 'string' ? new Date(at) : at
  const hh = String(d.getUTCHours()).padStart(2, '0')
  const mm = String(d.getUTCMinutes()).padStart(2, '0')
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${hh}:${mm} UTC`
}

/** "a", "a and b", "a, b and c". */
export function wordList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
}
