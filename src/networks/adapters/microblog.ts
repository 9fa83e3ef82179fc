import type { NetworkAdapter } from '../adapter'
import type { AdapterOptions } from './options'

/** Not connected yet: every publish is refused with a clear message until this network's adapter lands. */
export function createMicroblogAdapter(_options: AdapterOptions): NetworkAdapter {
  return { publish: async () => ({ status: 'failed', kind: 'rejected', message: 'MICROBLOG_NET is not available yet.' }) }
}
