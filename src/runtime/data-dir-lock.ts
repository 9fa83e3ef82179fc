import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number, hint: string) {
    super(`DATA_DIR ${dir} is in use by process ${pid} (is npm start running?). ${hint}`)
    this.name = 'DataDirInUseError'
  }
}

const EMBEDDED_DATABASE_HINT =
  'The embedded database serves one process at a time: stop that process first, or run both against DATABASE_URL.'

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * PGlite is one process's database: a second process opening the same folder would see a stale
 * copy and could corrupt it. The lock file names the owner; a lock left by a dead process is taken over.
 */
export function lockDataDir(dir: string, hint: string = EMBEDDED_DATABASE_HINT): () => void {
  const file = join(dir, 'owner.pid')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' })
      return () => rmSync(file, { force: true })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const owner = Number(readFileSync(file, 'utf8').trim())
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner))
        throw new DataDirInUseError(dir, owner, hint)
      rmSync(file, { force: true })
    }
  }
  throw new Error(`could not lock ${dir}`)
}
