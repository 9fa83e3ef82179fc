import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { randomBase62 } from '../lib/ids'
import { lockDataDir } from './data-dir-lock'

const INSTANCE_ID = /^[0-9A-Za-z]{16}$/

export interface LeaseHolder {
  /** `<instance>/<boot>`, both base62: what this process writes on the claims it makes. */
  holder: string
  /** Says in the folder's lock that this server is stopping (a start meanwhile waits for it). */
  stopping(): void
  release(): void
}

/**
 * The name under which a Node server holds its publish claims. The instance part is kept in
 * DATA_DIR/instance/id, so a server restarted on the same DATA_DIR recognises the claims of its
 * earlier boots as orphaned; the boot part is new at every start. The folder stays locked while the
 * server runs: two live servers sharing one instance id would each take the other's claims for orphans
 * (a start while an earlier server of the folder is stopping waits for it: see `lockDataDir`).
 */
export async function claimLeaseHolder(dataDir: string): Promise<LeaseHolder> {
  const dir = join(dataDir, 'instance')
  mkdirSync(dir, { recursive: true })
  const lock = await lockDataDir(dir, {
    hint: 'Each server needs a DATA_DIR of its own (its claims on publishes are named after it): give the other one another DATA_DIR.',
  })
  const file = join(dir, 'id')
  let instance = existsSync(file) ? readFileSync(file, 'utf8').trim() : ''
  if (!INSTANCE_ID.test(instance)) {
    instance = randomBase62(16)
    writeFileSync(file, `${instance}\n`)
  }
  return { holder: `${instance}/${randomBase62(8)}`, stopping: lock.stopping, release: lock.release }
}
