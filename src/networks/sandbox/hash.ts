/**
 * Deterministic figures for the simulated network: a 32-bit FNV-1a hash of a string (with a final mix), and the
 * same hash as a fraction in [0, 1). The sandbox never uses randomness for what it reports.
 */
export function hash32(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  // A final mix (MurmurHash3's fmix32) so inputs differing in their last character spread out.
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** A stable fraction in [0, 1) for `parts` joined with ':'. */
export function unitHash(...parts: Array<string | number>): number {
  return hash32(parts.join(':')) / 0x1_0000_0000
}
