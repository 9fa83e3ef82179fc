import type { Handler } from 'hono'
import type { AppEnv } from '../../http/context'
import { checkHealth } from '../../services/health'

/**
 * `GET /health`, for those who run the service rather than those who call the API (README,
 * "Self-hosting"; it is not part of the OpenAPI document). Registered on the app itself before the rate
 * limit and the token check: monitors and load balancers poll it from one address, with no token. It
 * says nothing of any workspace. 200 while the database answers (`ok`, or `degraded` when targets are
 * overdue, claims expired or the rate limiter's Redis does not answer); 503 `unavailable` when it
 * does not answer in time. Never cached.
 */
export const getHealth: Handler<AppEnv> = async (c) => {
  const report = await checkHealth(c.get('deps'))
  c.header('Cache-Control', 'no-store')
  return c.json(report, report.status === 'unavailable' ? 503 : 200)
}
