/**
 * What `npm start` says once the app answers: the `boot` log line (where the start's time went) and
 * the banner (the address, the database, the media store, the rate limits and, on a fresh database,
 * the demo workspace's token and its user's password, shown only this once).
 */
import type { Logger } from '../infra/logger'
import type { NodeRuntime } from '../runtime/node-deps'
import type { DemoWorkspace } from '../services/demo'

/** The moments of the start, from performance.now(). */
export interface BootMarks {
  startedAt: number
  listenedAt: number
  loadedAt: number
  openedAt: number
  demoAt: number
}

/** Where the start went (performance.now() counts from the process's start: loading the modules comes first). */
export function logBootTimings(logger: Logger, marks: BootMarks): void {
  const ms = (a: number, b: number) => Math.round(b - a)
  logger.info('boot', {
    modulesMs: Math.round(marks.startedAt),
    listenMs: ms(marks.startedAt, marks.listenedAt),
    appModulesMs: ms(marks.listenedAt, marks.loadedAt),
    runtimeMs: ms(marks.loadedAt, marks.openedAt),
    demoMs: ms(marks.openedAt, marks.demoAt),
    appMs: ms(marks.demoAt, performance.now()),
  })
}

/** The banner, in one write: whoever reads the output (a terminal, a supervisor, a test) gets it whole. */
export function printBanner(options: {
  base: string
  bootMs: number
  runtime: Pick<NodeRuntime, 'database' | 'mediaStore' | 'rateLimits'>
  demo: DemoWorkspace | null
}): void {
  const { base, runtime, demo } = options
  const banner = [
    `Social Publishing API on ${base} (database: ${runtime.database}, boot ${options.bootMs} ms)`,
    `  API reference: ${base}/docs`,
    `  Media store: ${runtime.mediaStore} (uploads PUT here; objects are served from here)`,
    `  Rate limits: ${runtime.rateLimits}`,
  ]
  if (demo) {
    banner.push(
      `\nDemo workspace ${demo.workspaceId} with ${demo.accounts} SANDBOX accounts. Its token, shown only this once:\n`,
      `  ${demo.token}\n`,
      `  curl -H "Authorization: Bearer ${demo.token}" ${base}/v1/me\n`,
      `Dashboard: ${base}/app/sign-in as ${demo.user.email} with the password (shown only this once):\n`,
      `  ${demo.user.password}\n`,
    )
  }
  console.log(banner.join('\n'))
}
