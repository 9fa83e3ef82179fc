/** Wording helpers for violation messages: numbers a person can compare at a glance. */
import type { TextBudget } from '../rules/schema'

/** `1500000` -> "1.5 MB"; when two sizes would read alike, both are given in bytes. */
export function sizePair(actual: number, limit: number): [string, string] {
  const a = humanBytes(actual)
  const l = humanBytes(limit)
  return a === l ? [`${actual} bytes`, `${limit} bytes`] : [a, l]
}

function humanBytes(n: number): string {
  if (n >= 1e9) return `${round(n / 1e9, 2)} GB`
  if (n >= 1e6) return `${round(n / 1e6, 1)} MB`
  if (n >= 1e3) return `${round(n / 1e3, 1)} KB`
  return `${n} bytes`
}

export function seconds(n: number): string {
  return `${round(n, 1)} s`
}

export function ratio(n: number): string {
  return String(round(n, 2))
}

export function round(n: number, digits: number): number {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

/** The unit a budget counts in, as a person reads it. */
export function unitOf(budget: Pick<TextBudget, 'counting'>): string {
  return budget.counting === 'utf8_bytes' ? 'bytes' : 'characters'
}

/** How the network counts, when it differs from "one character, one unit". */
export function countingNote(budget: Pick<TextBudget, 'counting' | 'urlWeight'>): string {
  const link = budget.urlWeight ? `every link counts ${budget.urlWeight}` : null
  switch (budget.counting) {
    case 'weighted':
      return ` (${[link, 'emoji and CJK characters count 2'].filter(Boolean).join('; ')})`
    case 'characters_emoji_bytes':
      return ` (${[link, 'each emoji counts as its UTF-8 bytes'].filter(Boolean).join('; ')})`
    case 'utf16':
      return ` (${[link, 'emoji count 2'].filter(Boolean).join('; ')})`
    case 'utf8_bytes':
      return ' (UTF-8 bytes: accented letters count 2, emoji 4)'
    default:
      return link ? ` (${link})` : ''
  }
}

/** `count(1, 'image')` -> "1 image", `count(2, 'image')` -> "2 images". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

/** "a", "a or b", "a, b or c". */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`
}
