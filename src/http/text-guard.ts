/**
 * Text PostgreSQL cannot store: the NUL character, and UTF-16 surrogates without their pair (no
 * UTF-8 encoding exists for them). Refused at the boundary, so no request fails in the database.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

export const unstorable = (text: string) => text.includes('\0') || LONE_SURROGATE.test(text)

/** The text with what cannot be stored replaced, to name a field in an answer. */
export const printable = (text: string) => text.replaceAll('\0', '?').replace(new RegExp(LONE_SURROGATE, 'g'), '?')

const MESSAGE = 'contains a NUL character or an unpaired surrogate, which cannot be stored'

/** A place in a parsed JSON value: its key under its parent (`null` for the root). */
interface Place {
  value: unknown
  key: string | null
  parent: Place | null
}

const pathOf = (place: Place | null): string[] => {
  const path: string[] = []
  for (let p = place; p && p.key !== null; p = p.parent) path.push(p.key)
  return path.reverse()
}

/**
 * The first place in a parsed JSON value holding unstorable text (a key or a string), as a dotted
 * path. Walked with a stack of its own, not recursion: a body nested a hundred thousand levels deep
 * fits in the size cap and would overflow the call stack.
 */
function unstorableIn(root: unknown): string[] | null {
  const stack: Place[] = [{ value: root, key: null, parent: null }]
  while (stack.length > 0) {
    const place = stack.pop()!
    const { value, key } = place
    if (key !== null && unstorable(key)) return [...pathOf(place.parent), printable(key)]
    if (typeof value === 'string') {
      if (unstorable(value)) return pathOf(place)
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: String(i), parent: place })
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value)
      for (let i = entries.length - 1; i >= 0; i--)
        stack.push({ value: entries[i]![1], key: entries[i]![0], parent: place })
    }
  }
  return null
}

/**
 * The dotted place of the first text in a parsed JSON value that cannot be stored ('' for the value
 * itself), or null: for callers that receive JSON another way than as a request body (MCP tool arguments).
 */
export function unstorableTextPath(value: unknown): string | null {
  const found = unstorableIn(value)
  return found === null ? null : found.join('.')
}

export const UNSTORABLE_TEXT_MESSAGE = MESSAGE

/** The path as text (percent-decoded where it decodes), to look for such text in it. */
export function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}
