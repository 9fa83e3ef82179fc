/**
 * A Redis server of the test's own (never the machine's 6379): `redis-server` as a child process on
 * a free port, no persistence, that the test may kill and start again on the same port.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import net from 'node:net'

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })

export interface PrivateRedis {
  port: number
  url: string
  /** Starts the server (again) on its port; resolves once it accepts connections. */
  start(): Promise<void>
  /** SIGKILL: the server is gone at once, as when its host dies. */
  kill(): Promise<void>
}

export async function privateRedis(): Promise<PrivateRedis> {
  const port = await freePort()
  let child: ChildProcess | null = null
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']
      const started = spawn('redis-server', [...args, '--daemonize', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] })
      child = started
      let out = ''
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${out}`)), 10_000)
      started.stdout!.on('data', (d) => {
        out += d
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer)
          resolve()
        }
      })
      started.stderr!.on('data', (d) => (out += d))
      started.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`redis-server exited with ${code}:\n${out}`))
      })
    })
  const kill = async () => {
    const running = child
    child = null
    if (!running || running.exitCode !== null) return
    const exited = new Promise((resolve) => running.once('exit', resolve))
    running.kill('SIGKILL')
    await exited
  }
  await start()
  return { port, url: `redis://127.0.0.1:${port}`, start, kill }
}
