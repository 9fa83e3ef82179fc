/** Time as a port, so tests and benchmarks can move it. */
export interface Clock {
  now(): Date
}

export const systemClock = (): Clock => ({ now: () => new Date() })
