import { vi } from 'vitest'

/**
 * Reads until `done` holds or `timeoutMs` has passed, polling (vi.waitFor): for a condition a real
 * process, server or database reaches in its own time, never a fixed sleep. Returns the last value
 * read, so the test's own assertion on it says what was seen when time ran out.
 */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 8_000,
  intervalMs = 25,
): Promise<T> {
  let last: { value: T } | undefined
  try {
    await vi.waitFor(
      async () => {
        last = { value: await read() }
        if (!done(last.value)) throw new Error('not yet')
      },
      { timeout: timeoutMs, interval: intervalMs },
    )
  } catch (err) {
    if (last === undefined) throw err
  }
  return last!.value
}
