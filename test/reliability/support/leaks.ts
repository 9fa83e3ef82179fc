/**
 * What must never reach a response body, a page or a log line: a secret the test knows (API tokens,
 * network credentials, OAuth client secrets, signing keys), SQL text, a driver's error text, a
 * connection string, or a stack trace. Every reliability test records what it saw here and checks it
 * at the end, so the whole suite is scanned, not a chosen sample.
 */

/** Shapes that betray internals whatever the secret values are. */
const INTERNAL_SHAPES: Array<{ name: string; pattern: RegExp }> = [
  { name: 'stack trace', pattern: /\n\s+at [^\n]+:\d+:\d+\)?/ },
  { name: 'stack trace', pattern: /"stack"\s*:/ },
  {
    name: 'SQL text',
    pattern: /\b(select\s+[^"]{1,200}\s+from|insert\s+into|update\s+"?\w+"?\s+set|delete\s+from)\s/i,
  },
  {
    name: 'database error',
    pattern: /\b(syntax error at or near|violates (foreign key|unique|check) constraint|relation "\w+")/i,
  },
  { name: 'connection string', pattern: /\b(postgres(ql)?|redis|rediss):\/\/[^\s"]+/i },
  { name: 'bearer token', pattern: /\bsps_[A-Za-z0-9]{20,}/ },
]

export interface Leak {
  kind: string
  where: string
  excerpt: string
}

export interface LeakWatch {
  /** Something the service said: a response body, a header block, a log line, a child's output. */
  record(where: string, text: string): void
  /** Values that must not appear anywhere recorded (longer than 7 characters, to avoid chance hits). */
  secret(...values: Array<string | undefined | null>): void
  /** Everything found so far; empty when the service kept its secrets. */
  leaks(): Leak[]
  /** How much was scanned, for the test's own report. */
  scanned(): { texts: number; bytes: number }
}

export function createLeakWatch(): LeakWatch {
  const texts: Array<{ where: string; text: string }> = []
  const secrets = new Set<string>()
  let bytes = 0
  return {
    record(where, text) {
      if (!text) return
      texts.push({ where, text })
      bytes += text.length
    },
    secret(...values) {
      for (const v of values) if (v && v.length > 7) secrets.add(v)
    },
    leaks() {
      const found: Leak[] = []
      for (const { where, text } of texts) {
        for (const s of secrets) {
          const at = text.indexOf(s)
          if (at >= 0) found.push({ kind: 'secret', where, excerpt: excerpt(text, at) })
        }
        for (const { name, pattern } of INTERNAL_SHAPES) {
          const match = pattern.exec(text)
          if (match) found.push({ kind: name, where, excerpt: excerpt(text, match.index) })
        }
      }
      return found
    },
    scanned: () => ({ texts: texts.length, bytes }),
  }
}

function excerpt(text: string, at: number): string {
  return text.slice(Math.max(0, at - 60), at + 60).replace(/\s+/g, ' ')
}
