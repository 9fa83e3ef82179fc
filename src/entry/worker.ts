import type { ExecutionContext, ScheduledController } from '@cloudflare/workers-types/index'
import { createApp } from '../app'
import { ConfigError } from '../config'
import { AppError } from '../domain/errors'
import { errorBody } from '../http/errors'
import { randomBase62 } from '../lib/ids'
import { buildWorkerDeps } from '../runtime/worker-deps'
import { runScheduledJobs } from '../services/scheduled-jobs'

type Env = Record<string, unknown>

function misconfigured(err: unknown): Response {
  const requestId = `req_${randomBase62(20)}`
  // Key names only: a ConfigError never carries a value.
  console.log(
    JSON.stringify({
      level: 'error',
      event: 'worker_misconfigured',
      requestId,
      problems: err instanceof ConfigError ? err.problems.join('; ') : 'unknown',
    }),
  )
  const body = errorBody(
    new AppError('internal_error', 'The service is misconfigured. The request id identifies it in our logs.'),
    requestId,
  )
  return Response.json(body, { status: 500, headers: { 'X-Request-Id': requestId } })
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    let runtime: Awaited<ReturnType<typeof buildWorkerDeps>>
    try {
      runtime = await buildWorkerDeps(env)
    } catch (err) {
      return misconfigured(err)
    }
    try {
      return await createApp(runtime.deps).fetch(request, env, ctx)
    } finally {
      ctx.waitUntil(runtime.close())
    }
  },

  /** Cron Trigger (every minute, wrangler.toml): the publishing safety net and collection jobs. */
  async scheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
    const runtime = await buildWorkerDeps(env)
    try {
      await runScheduledJobs(runtime.deps)
    } finally {
      ctx.waitUntil(runtime.close())
    }
  },
}
