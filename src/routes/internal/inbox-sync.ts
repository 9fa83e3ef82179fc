import type { Context } from 'hono'
import { z } from 'zod'
import { AppError } from '../../domain/errors'
import type { AppEnv } from '../../http/context'
import { verifiedCallbackBody } from './verify-callback'
import { inboxSyncCallbackUrl, type InboxSyncCallbackBody } from '../../domain/delivery-callbacks'
import { syncAccount } from '../../services/inbox/sync'

/**
 * `POST /internal/inbox-sync`: QStash's call for one account's inbox sync (the Worker's Cron pass
 * handed it over). Checked exactly like the publish callback (publish.ts): the same verifier,
 * against `PUBLIC_URL/internal/inbox-sync`; 404 where syncs run in process (Node), 401 without a
 * valid `Upstash-Signature`, 400 for a body that is not `{ accountId }`. Then `syncAccount`, which
 * takes the account's lease and runs only its due streams, so a repeated call is harmless:
 * 200 `{ ran, failed }` (`ran: false` when another run holds the account or it is not active).
 */
export const PATH = '/inbox-sync'

const BodySchema = z.object({ accountId: z.string().min(1).max(128) }) satisfies z.ZodType<InboxSyncCallbackBody>

export async function handler(c: Context<AppEnv>): Promise<Response> {
  const deps = c.get('deps')
  const raw = await verifiedCallbackBody(c, inboxSyncCallbackUrl, 'inbox_sync_callback_rejected')
  let parsed: ReturnType<typeof BodySchema.safeParse>
  try {
    parsed = BodySchema.safeParse(JSON.parse(raw))
  } catch {
    throw new AppError('invalid_request', 'The callback body is not valid JSON.')
  }
  if (!parsed.success) throw new AppError('invalid_request', 'The callback body must be { accountId }.')
  const result = await syncAccount(deps, { accountId: parsed.data.accountId, now: deps.clock.now() })
  return c.json({ ran: result.ran, failed: result.failed }, 200)
}
