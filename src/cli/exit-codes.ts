/**
 * The CLI's exit codes, which scripts can rely on (documented in `--help` and the README):
 * 0 done; 1 refused (the API answered 4xx other than 401/403/404, or a server-side admin command
 * failed); 2 usage (unknown command or option, a missing value); 3 not logged in, or the token was
 * refused (401/403); 4 not found (404); 5 unavailable (5xx, connection refused, DNS, timeout).
 */
export const EXIT = {
  OK: 0,
  REFUSED: 1,
  USAGE: 2,
  AUTH: 3,
  NOT_FOUND: 4,
  UNAVAILABLE: 5,
} as const

/** The exit code of an HTTP error status. */
export function exitCodeOfStatus(status: number): number {
  if (status === 401 || status === 403) return EXIT.AUTH
  if (status === 404) return EXIT.NOT_FOUND
  if (status >= 500) return EXIT.UNAVAILABLE
  return EXIT.REFUSED
}

/** The lines the help and the README show. */
export const EXIT_CODE_HELP: Array<[string, string]> = [
  ['0', 'done'],
  ['1', 'refused: the API answered 4xx (e.g. 422 invalid, 409 conflict, 429), or an admin command failed'],
  ['2', 'usage: unknown command or option, a missing value or argument'],
  ['3', 'not logged in (no URL or token), or the token refused (401, 403)'],
  ['4', 'not found (404)'],
  ['5', 'server unavailable: 5xx, connection refused, DNS failure, timeout'],
]
