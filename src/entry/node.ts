import { serve } from '@hono/node-server'
import { createApp } from '../app'
import { ConfigError, parseNodeConfig } from '../config'
import { describeError } from '../infra/logger'
import { DataDirInUseError } from '../runtime/data-dir-lock'
import { buildNodeDeps } from '../runtime/node-deps'
import { bootstrapDemoWorkspace } from '../services/demo'
import { requeuePendingTargets } from '../services/publishing/sweep'
import { runScheduledJobs } from '../services/scheduled-jobs'

/** `npm start`: the API on Node with embedded defaults (PGlite, in-memory rate limits, in-process jobs). */
async function main(): Promise<void> {
  const startedAt = performance.now()
  const config = parseNodeConfig(process.env)
  const runtime = await buildNodeDeps(config)
  const demo = await bootstrapDemoWorkspace(runtime.deps)
  const app = createApp(runtime.deps)
  const server = serve({ fetch: app.fetch, hostname: config.HOST, port: config.PORT }, (info) => {
    const base = `http://${info.address.includes(':') ? `[${info.address}]` : info.address}:${info.port}`
    // Sandbox permalinks point here unless PUBLIC_URL says where users reach the service.
    runtime.deps.settings.publicUrl ??= base
    const bootMs = Math.round(performance.now() - startedAt)
    console.log(`Social Publishing API on ${base} (database: ${runtime.database}, boot ${bootMs} ms)`)
    console.log(`  API reference: ${base}/docs`)
    console.log(`  Media store: ${runtime.mediaStore} (uploads PUT here; objects are served from here)`)
    if (demo) {
      console.log(
        `\nDemo workspace ${demo.workspaceId} with ${demo.accounts} SANDBOX accounts. Its token, shown only this once:\n`,
      )
      console.log(`  ${demo.token}\n`)
      console.log(`  curl -H "Authorization: Bearer ${demo.token}" ${base}/v1/me\n`)
    }
  })
  // The in-process queue starts empty: hand it every pending publish again, then sweep every minute.
  const requeued = await requeuePendingTargets(runtime.deps)
  if (requeued > 0) runtime.deps.logger.info('publishes_requeued', { count: requeued })
  const timer = setInterval(() => void runScheduledJobs(runtime.deps), 60_000)
  timer.unref()

  const shutdown = () => {
    clearInterval(timer)
    server.close(() => void runtime.close().finally(() => process.exit(0)))
  }
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirInUseError) console.error(err.message)
  else console.error(`Start-up failed (${JSON.stringify(describeError(err))}); is the database reachable?`)
  process.exit(1)
})
