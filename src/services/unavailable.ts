/**
 * The service's answer when its database cannot be reached: the error layers above the services
 * (the API, the dashboard, MCP) turn a failure into, classified by the database layer
 * (`db/unavailable.ts`: node-postgres's and Node's words for a refused, broken or timed-out
 * connection), so they never see the driver's errors.
 */
import { databaseUnavailable, isDatabaseUnavailable } from '../db/unavailable'

export { isDatabaseUnavailable }

/** `err` as a 503 `service_unavailable` with `retryAfterSec`, when it says the database is unavailable; else null. */
export const serviceUnavailableFrom = databaseUnavailable
