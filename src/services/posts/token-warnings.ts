/**
 * Warnings at schedule time: a target account whose token expires before the post is due, and that
 * this service cannot renew (no refresh token stored, and a network without a renewal of its own),
 * would fail then; the caller is told now, with the account, the expiry and the reconnect call.
 */
import { selectAccountsExpiringBy } from '../../db/queries/accounts'
import type { DbOrTx } from '../../db/types'
import type { Deps } from '../../deps'
import type { PostWarning } from '../../domain/post-validation'
import type { Connection, PlatformId } from '../../domain/vocabulary'

/** Networks whose long-lived tokens renew themselves while still valid (no refresh token needed). */
const SELF_RENEWING: ReadonlyArray<readonly [PlatformId, Connection]> = [
  ['TEXTTHREAD_NET', 'DIRECT_LOGIN'],
  ['PHOTO_NET', 'DIRECT_LOGIN'],
]

const selfRenewing = (platform: PlatformId, connection: Connection) =>
  SELF_RENEWING.some(([p, c]) => p === platform && c === connection)

/**
 * One `token_expires` warning per target account that cannot last until `dueAt` (none without a
 * time). Only accounts whose token expires by then (as loaded with the post) are read again.
 */
export async function tokenExpiryWarnings(
  deps: Pick<Deps, 'cipher'> & { db: DbOrTx },
  workspaceId: string,
  accounts: Array<{ id: string; tokenExpiresAt: Date | null }>,
  dueAt: Date | null,
): Promise<PostWarning[]> {
  if (!dueAt) return []
  const expiring = accounts.filter((a) => a.tokenExpiresAt !== null && a.tokenExpiresAt <= dueAt).map((a) => a.id)
  if (expiring.length === 0) return []
  const rows = await selectAccountsExpiringBy(deps.db, workspaceId, [...new Set(expiring)], dueAt)
  const warnings: PostWarning[] = []
  for (const row of rows) {
    if (row.status !== 'ACTIVE' || !row.tokenExpiresAt || selfRenewing(row.platform, row.connection)) continue
    const credentials = await deps.cipher.decrypt(row.credentials, row.id).catch(() => ({}) as Record<string, unknown>)
    if (typeof credentials.refreshToken === 'string' && credentials.refreshToken) continue
    warnings.push({
      code: 'token_expires',
      accountId: row.id,
      message: `The ${row.platform} account ${row.username} (${row.id}) can publish until ${row.tokenExpiresAt.toISOString()}, before this post is due (${dueAt.toISOString()}), and its token cannot be renewed by this service. Reconnect the account before then (POST /v1/accounts/${row.id}/reconnect gives its owner a link), or the post will fail.`,
    })
  }
  return warnings
}
