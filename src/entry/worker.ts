import type { ExecutionContext, ScheduledController } from '@cloudflare/workers-types/index'
import type { OpenAPIHono } from '@hono/zod-openapi'
import { createApp } from '../app'
import { ConfigError } from '../config'
import { AppError } from '../domain/errors'
import type { AppEnv } from '../http/context'
import { errorBody } from '../http/errors'
import { randomBase62 } from '../lib/ids'
import { workerClientIp } from '../runtime/client-ip'
import { createWorkerIsolate, type WorkerIsolate } from '../runtime/worker-deps'
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

/**
 * The Worker. The app and every stateless client are made once per isolate, on its first
 * request; each request (and each cron run) gets its own database pool through the app's deps
 * middleware, closed once it is answered.
 */
function createWorker() {
  // Keyed by the bindings object, which stays the same for the life of an isolate: new bindings
  // (another deployment's, or a test's) get an app of their own.
  const isolates = new WeakMap<Env, Promise<{ isolate: WorkerIsolate; app: OpenAPIHono<AppEnv> }>>()
  const prepare = (env: Env) => {
    let ready = isolates.get(env)
    if (!ready) {
      ready = createWorkerIsolate(env).then((made) => ({
        isolate: made,
        app: createApp({
          settings: made.parts.settings,
          depsFor: () => {
            const opened = made.open()
            return { deps: opened.deps, release: opened.close }
          },
          clientIp: workerClientIp,
        }),
      }))
      isolates.set(env, ready)
      // A configuration error is answered now and tried again on the next request.
      ready.catch(() => isolates.delete(env))
    }
    return ready
  }

  return {
    async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
      let ready: Awaited<ReturnType<typeof prepare>>
      try {
        ready = await prepare(env)
      } catch (err) {
        return misconfigured(err)
      }
      return ready.app.fetch(request, env, ctx)
    },

    /** Cron Trigger (every minute, wrangler.toml): the publishing safety net and collection jobs. */
    async scheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
      const { isolate: made } = await prepare(env)
      const { deps, close } = made.open()
      try {
        await runScheduledJobs(deps)
      } finally {
        ctx.waitUntil(close())
      }
    },
  }
}

export default createWorker()
