import type { Server } from 'node:net'

export interface ListenOptions {
  port: number
  host: string
  /** How long a port in use is tried again (a process stopping or just killed may hold it a moment longer). */
  retryMs: number
  /** Told once when the port is in use and will be tried again. */
  onRetry?: (message: string) => void
}

const RETRY_EVERY_MS = 250

function listenOnce(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (err: Error) => reject(err)
    server.once('error', failed)
    server.listen(port, host, () => {
      server.off('error', failed)
      resolve()
    })
  })
}

/**
 * `server.listen`, trying again for up to `retryMs` while the port is in use (EADDRINUSE), then
 * failing with that error. Node listens with SO_REUSEADDR, so connections of a dead process in
 * TIME_WAIT do not block the port; what does is a process still holding it.
 */
export async function listenWithRetry(server: Server, options: ListenOptions): Promise<void> {
  const deadline = Date.now() + options.retryMs
  let told = false
  for (;;) {
    try {
      return await listenOnce(server, options.port, options.host)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() >= deadline) throw err
      if (!told) {
        told = true
        options.onRetry?.(
          `Port ${options.port} is in use: trying again for up to ${Math.round(options.retryMs / 1000)} s (a server stopping there may still hold it).`,
        )
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS))
    }
  }
}
