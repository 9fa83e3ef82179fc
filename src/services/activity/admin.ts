/**
 * The activity entries of administrative actions: API tokens, members and invitations, webhook
 * endpoints, the workspace's settings. Never a secret: a token, a link's token or an endpoint's
 * signing secret is named by its id and name only.
 */
import type { Tx } from '../../db/types'
import type { Caller } from '../caller'
import { recordActivity } from './record'
import { wordList } from './words'

interface AdminAction {
  action: string
  subject: { type: string; id: string | null }
  /** The sentence after the actor's name. */
  words: string
  details?: Record<string, unknown>
  now: Date
}

/** One administrative action by the caller: "<actor> <words>". */
export function recordAdminActivity(tx: Tx, caller: Caller, entry: AdminAction) {
  return recordActivity(tx, {
    workspaceId: caller.workspaceId,
    actor: caller.actor,
    ip: caller.ip,
    action: entry.action,
    subject: entry.subject,
    summary: `${caller.actor.name} ${entry.words}`,
    details: entry.details ?? {},
    now: entry.now,
  })
}

export function recordTokenActivity(
  tx: Tx,
  caller: Caller,
  entry: { action: 'token.created' | 'token.revoked'; token: { id: string; name: string }; now: Date },
) {
  const verb = entry.action === 'token.created' ? 'created' : 'revoked'
  return recordAdminActivity(tx, caller, {
    action: entry.action,
    subject: { type: 'token', id: entry.token.id },
    words: `${verb} the API token "${entry.token.name}" (${entry.token.id})`,
    details: { name: entry.token.name },
    now: entry.now,
  })
}

/** The fields of a change that were given, in words ("url and events"). */
export const givenFields = (change: object): string =>
  wordList(
    Object.entries(change)
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k),
  )
