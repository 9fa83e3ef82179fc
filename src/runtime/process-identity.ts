import { existsSync, readFileSync } from 'node:fs'
import { basename } from 'node:path'

/** What can be learnt of a process from its pid. */
export interface ProcessFacts {
  /** Whether a process has this pid (a zombie too). */
  exists: boolean
  /** Killed or ended, but never reaped by its parent (Linux state Z or X): it holds nothing any more. */
  zombie: boolean
  /** Its start time (Linux: clock ticks after boot, /proc/<pid>/stat field 22), or null where unknown. */
  startTime: string | null
  /** Whether its program is Node (as this process's is), or null where unknown. */
  runsNode: boolean | null
}

const HAS_PROC = existsSync('/proc/self/stat')

/** Whether a signal could reach the pid: a process has it (another user's too). */
function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function readProc(pid: number, name: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8')
  } catch {
    return null
  }
}

const NODE_NAMES = new Set(['node', basename(process.execPath), basename(process.argv0)])

/**
 * The facts about `pid`: on Linux from /proc/<pid>/stat (state after the command name, which may
 * hold spaces and parentheses, so read from the last ')'; field 3 the state, field 22 the start
 * time) and /proc/<pid>/cmdline (its program); elsewhere only whether it exists.
 */
export function processAt(pid: number): ProcessFacts {
  const unknown = { zombie: false, startTime: null, runsNode: null }
  if (!Number.isInteger(pid) || pid <= 0 || !signalable(pid)) return { exists: false, ...unknown }
  if (!HAS_PROC) return { exists: true, ...unknown }
  const stat = readProc(pid, 'stat')
  // Gone since the signal check (or /proc hides other users' processes: then nothing more is known).
  if (stat === null) return { exists: signalable(pid), ...unknown }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const state = fields[0] ?? ''
  const program = (readProc(pid, 'cmdline') ?? '').split('\0')[0] ?? ''
  return {
    exists: true,
    zombie: state === 'Z' || state === 'X',
    startTime: fields[19] ?? null,
    runsNode: program === '' ? null : NODE_NAMES.has(basename(program)),
  }
}
