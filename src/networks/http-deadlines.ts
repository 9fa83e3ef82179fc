/**
 * How long a network call may take: the default and media deadlines, and the ceiling a test (or a
 * runtime) puts on every call's deadline through the fetch it hands the adapters.
 */
/** A network call longer than this is abandoned as transient (well under the engine's 5-minute lease). */
export const DEFAULT_TIMEOUT_MS = 30_000
/** Uploading or downloading media bytes may take longer. */
export const MEDIA_TIMEOUT_MS = 120_000
/**
 * Reading our own media: the store must start answering within this (a stalled store is then
 * retried like a network failure, not waited on for the whole media bound); the bytes may take
 * up to `MEDIA_TIMEOUT_MS` in all.
 */
export const MEDIA_ANSWER_TIMEOUT_MS = 30_000

const DEADLINE_CAP = Symbol('networkDeadlineCapMs')
type CappedFetch = typeof fetch & { [DEADLINE_CAP]?: number }

/**
 * `fetchImpl` under a ceiling on every network call's deadline: `request` and `downloadMedia` wait
 * at most `capMs` for a call, whatever deadline it asked for (a test's short deadline, so a stalled
 * network costs no real 30 s). The cap travels with the fetch each adapter is given.
 */
export function withDeadlineCap(fetchImpl: typeof fetch, capMs: number): typeof fetch {
  const capped: CappedFetch = (input, init) => fetchImpl(input, init)
  capped[DEADLINE_CAP] = capMs
  return capped
}

/** The deadline of one call: the one asked for (default `DEFAULT_TIMEOUT_MS`), under the fetch's cap. */
export function deadlineOf(fetchImpl: typeof fetch, askedMs: number = DEFAULT_TIMEOUT_MS): number {
  const cap = (fetchImpl as CappedFetch)[DEADLINE_CAP]
  return cap !== undefined && cap < askedMs ? cap : askedMs
}
