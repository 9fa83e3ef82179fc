/** The activity entries of an account's connection: connected, reconnected, expired, disconnected. */
import type { Tx } from '../../db/types'
import type { Caller } from '../caller'
import { recordActivity } from './record'

interface AccountChange {
  action: 'account.connected' | 'account.reconnected' | 'account.expired' | 'account.disconnected'
  account: { id: string; platform: string; username: string }
  /** The past participle of the sentence: "connected", "marked as expired". */
  words: string
  details?: Record<string, unknown>
  now: Date
}

/** "Ana connected the microblog account @ana_news (acc_x)"; the service's own changes read the same with "Service". */
export function recordAccountActivity(tx: Tx, caller: Caller, change: AccountChange) {
  const { account } = change
  const who = caller.actor.kind === 'system' && change.action === 'account.expired' ? 'The network' : caller.actor.name
  return recordActivity(tx, {
    workspaceId: caller.workspaceId,
    actor: caller.actor,
    ip: caller.ip,
    action: change.action,
    subject: { type: 'account', id: account.id },
    summary:
      change.action === 'account.expired'
        ? `${who} no longer accepts the ${account.platform} account ${account.username} (${account.id}): it is expired`
        : `${who} ${change.words} the ${account.platform} account ${account.username} (${account.id})`,
    details: { platform: account.platform, username: account.username, ...change.details },
    now: change.now,
  })
}
