/**
 * The CLI's runtime (`npm run -s cli`, the server-administration commands): the server's database,
 * credentials key, network settings and media store, without serving anything itself.
 */
import type { NodeConfig } from '../config'
import type { Deps } from '../deps'
import { systemClock } from '../infra/clock'
import { createCredentialCipher } from '../infra/credential-cipher'
import { createLogger } from '../infra/logger'
import { createMemoryRateLimiter } from '../infra/ratelimit/memory'
import { nodeImageCodecs } from '../media/codecs-node'
import { buildDeps } from './build-deps'
import { openNodeDatabase, resolveCredentialsKey } from './node-database'
import { nodeDocsAssets } from './node-docs-assets'
import { inProcessQueue } from './node-queues'
import { nodeResolveHost, nodeSettings } from './node-settings'
import { nodeOpenSocket } from './node-socket'
import { openNodeStorage } from './node-storage'

/**
 * The CLI's deps: the server's database, credentials key, network settings and media store,
 * without serving anything itself (no local store, no listener).
 */
export async function openCliRuntime(
  config: NodeConfig,
): Promise<{ deps: Deps; migrationsApplied: string[]; close(): Promise<void> }> {
  const quietLine = (line: string) => console.error(line)
  const logger = createLogger('warn', quietLine)
  const database = await openNodeDatabase(config)
  try {
    const media = await openNodeStorage(config, { serve: false })
    const clock = systemClock()
    const queue = inProcessQueue(config, { logger, clock })
    const deps = buildDeps(
      {
        settings: nodeSettings(config),
        db: database.db,
        rateLimiter: createMemoryRateLimiter(),
        // A generated key is the server's business to announce; the CLI stays quiet about it.
        cipher: await createCredentialCipher(resolveCredentialsKey(config, createLogger('error', quietLine))),
        logger,
        storage: media.storage,
        imageCodecs: nodeImageCodecs(),
        docsAssets: nodeDocsAssets(),
        publishQueue: queue.bind,
        resolveHost: nodeResolveHost,
        openSocket: nodeOpenSocket,
      },
      { clock },
    )
    return {
      deps,
      migrationsApplied: database.migrationsApplied,
      close: () => queue.queue.close().finally(database.close),
    }
  } catch (err) {
    await database.close()
    throw err
  }
}
