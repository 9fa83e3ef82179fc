/** Text output for people: aligned tables and short values. */

/** Columns padded to their widest cell, a header row first; `none` when there are no rows. */
export function table(headers: string[], rows: string[][], none = '(none)'): string {
  if (rows.length === 0) return none
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd()
  return [line(headers), ...rows.map(line)].join('\n')
}

/** At most `max` characters on one line, with an ellipsis when cut. */
export function clip(text: string | null | undefined, max = 40): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** An ISO time as `2026-12-01 09:30Z` (UTC, to the minute), or `-`. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '-'
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')}Z`
}

/** `label: value` lines, labels aligned. */
export function fields(pairs: Array<[string, string]>): string {
  const width = Math.max(...pairs.map(([k]) => k.length)) + 1
  return pairs.map(([k, v]) => `${`${k}:`.padEnd(width)} ${v}`).join('\n')
}

/** A comma-separated list option as its items. */
export const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
