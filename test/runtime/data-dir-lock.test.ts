/**
 * DATA_DIR's lock (`owner.pid`) against real processes: a zombie, another program, a live holder
 * that stops, one that does not. Linux only where /proc tells a zombie from a live process.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DataDirInUseError, lockDataDir } from '../../src/runtime/data-dir-lock'
import { ROOT } from '../support/processes'

vi.setConfig({ testTimeout: 60_000 })

const children: ChildProcess[] = []
const dirs: string[] = []
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sps-lock-'))
  dirs.push(dir)
  return dir
}

/** Spawns a process and resolves with it once its output matches `ready` (and with the match). */
function spawnUntil(command: string, args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } })
    children.push(child)
    let out = ''
    const onData = (d: Buffer) => {
      out += d
      const match = ready.exec(out)
      if (match) resolve({ child, match: [...match] })
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.on('exit', (code) => reject(new Error(`${command} exited with ${code}: ${out}`)))
  })
}

const procState = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
}

/**
 * A real zombie: a child killed while its parent (`sleep`, which never waits on children) lives on,
 * as a server killed in a container whose PID 1 does not reap.
 */
async function zombie(): Promise<number> {
  const { match } = await spawnUntil('sh', ['-c', 'sleep 300 & echo "child $!"; exec sleep 300'], /child (\d+)\n/)
  const pid = Number(match[1])
  process.kill(pid, 'SIGKILL')
  await vi.waitFor(() => expect(procState(pid)).toBe('Z'), { timeout: 5_000 })
  return pid
}

/**
 * Another Node process holding `dir` through lockDataDir; on SIGTERM it says it is stopping and
 * lets go after `stopMs`, as a server finishing its requests does.
 */
async function nodeHolder(dir: string, stopMs: number): Promise<ChildProcess> {
  const script = `import { lockDataDir } from ${JSON.stringify(join(ROOT, 'src/runtime/data-dir-lock.ts'))}
    const lock = await lockDataDir(${JSON.stringify(dir)})
    process.once('SIGTERM', () => { lock.stopping(); setTimeout(() => { lock.release(); process.exit(0) }, ${stopMs}) })
    setInterval(() => {}, 1000)
    console.log('holding')`
  const { child } = await spawnUntil(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    /holding/,
  )
  return child
}

const lockFile = (dir: string) => join(dir, 'owner.pid')
const holderPid = (dir: string) => JSON.parse(readFileSync(lockFile(dir), 'utf8')).pid as number

describe.runIf(process.platform === 'linux')('the DATA_DIR lock', () => {
  it('takes over a lock naming a zombie (a killed server nobody reaped), at once', async () => {
    const dir = freshDir()
    const pid = await zombie()
    // What a server of the earlier version wrote: its bare pid.
    writeFileSync(lockFile(dir), String(pid))
    const told: string[] = []
    const started = Date.now()
    const lock = await lockDataDir(dir, { onWait: (m) => told.push(m) })
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(told).toEqual([])
    expect(holderPid(dir)).toBe(process.pid)
    lock.release()
  })

  it('takes over a lock naming a live process that is not a server of ours (its pid given to another program)', async () => {
    const dir = freshDir()
    const { child } = await spawnUntil('sh', ['-c', 'echo started; exec sleep 300'], /started/)
    writeFileSync(lockFile(dir), String(child.pid))
    const lock = await lockDataDir(dir, { onWait: () => {} })
    expect(holderPid(dir)).toBe(process.pid)
    lock.release()
    // The same with the lock this version writes, naming a start time the sleeping process does not have.
    writeFileSync(lockFile(dir), JSON.stringify({ pid: child.pid, startTime: '1', state: 'running' }))
    ;(await lockDataDir(dir, { onWait: () => {} })).release()
  })

  it('waits for a holder that is stopping and takes the folder once it has let go', async () => {
    const dir = freshDir()
    const holder = await nodeHolder(dir, 1_500)
    const told: string[] = []
    const locking = lockDataDir(dir, { onWait: (m) => told.push(m) })
    const started = Date.now()
    holder.kill('SIGTERM')
    const lock = await locking
    expect(Date.now() - started).toBeGreaterThan(1_000)
    expect(told).toHaveLength(1)
    expect(told[0]).toMatch(new RegExp(`held by process ${holder.pid}, which (may be )?stopping: waiting up to`))
    expect(holderPid(dir)).toBe(process.pid)
    lock.release()
  })

  it('refuses a live holder that does not stop, after waiting for it, and leaves its lock alone', async () => {
    const dir = freshDir()
    const holder = await nodeHolder(dir, 60_000)
    const told: string[] = []
    const started = Date.now()
    const refused = await lockDataDir(dir, { runningWaitMs: 800, onWait: (m) => told.push(m) }).catch((e) => e)
    expect(refused).toBeInstanceOf(DataDirInUseError)
    expect(refused.message).toMatch(new RegExp(`is in use by process ${holder.pid} \\(is npm start running\\?\\)`))
    expect(Date.now() - started).toBeGreaterThanOrEqual(800)
    expect(told).toEqual([expect.stringContaining('waiting up to 0.8 s')])
    expect(holderPid(dir)).toBe(holder.pid)
    // Stopping, it is waited for as long as stoppingWaitMs allows: here not long enough.
    holder.kill('SIGTERM')
    await vi.waitFor(() => expect(readFileSync(lockFile(dir), 'utf8')).toContain('"stopping"'))
    const still = await lockDataDir(dir, { stoppingWaitMs: 300, onWait: () => {} }).catch((e) => e)
    expect(still).toBeInstanceOf(DataDirInUseError)
  })
})
