import type { MiddlewareHandler } from 'hono'
import { AppError } from '../domain/errors'
import type { Admission } from '../infra/admission'
import type { AppEnv } from './context'

export type { Admission }

/**
 * Lets a request on only with a turn of `admission` (src/infra/admission.ts), held until its handler
 * has answered. A request refused is answered 503 `service_unavailable` with `Retry-After` before any
 * of its work began (thrown, so the site answers it in its own kind: the API's JSON, a dashboard page).
 */
export const admit =
  (admission: Admission): MiddlewareHandler<AppEnv> =>
  async (_c, next) => {
    const release = await admission.enter()
    if (!release) {
      const wait = admission.retryAfterSec
      throw new AppError(
        'service_unavailable',
        `The service is busy: more requests arrived than it can answer in time. Try again in ${wait} s.`,
        { retryAfterSec: wait },
      )
    }
    try {
      await next()
    } finally {
      release()
    }
  }
