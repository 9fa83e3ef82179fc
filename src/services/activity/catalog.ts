/**
 * The activity entries of the workspace's catalogue: account groups (with the accounts a change
 * added or removed) and labels. Recorded in the transaction of the change, as every entry.
 */
import type { Tx } from '../../db/types'
import type { Caller } from '../caller'
import { givenFields, recordAdminActivity } from './admin'

type Verb = 'created' | 'updated' | 'deleted'

interface GroupChange {
  verb: Verb
  group: { id: string; name: string }
  /** The accounts the change put in the group, and took out of it (none for a change that kept them). */
  added?: readonly string[]
  removed?: readonly string[]
  /** For an update: the fields given. */
  fields?: object
  now: Date
}

const accountsWords = (n: number) => `${n} account${n === 1 ? '' : 's'}`

function groupWords(change: GroupChange): string {
  const subject = `the account group "${change.group.name}" (${change.group.id})`
  const added = change.added?.length ?? 0
  const removed = change.removed?.length ?? 0
  if (change.verb === 'created') return `created ${subject}${added ? ` with ${accountsWords(added)}` : ''}`
  if (change.verb === 'deleted') return `deleted ${subject}${removed ? `, which had ${accountsWords(removed)}` : ''}`
  const fields = givenFields({ ...change.fields, accountIds: undefined })
  const what = [
    fields ? `changed its ${fields}` : '',
    added ? `added ${accountsWords(added)}` : '',
    removed ? `removed ${accountsWords(removed)}` : '',
  ].filter(Boolean)
  return `updated ${subject}${what.length ? `: ${what.join('; ')}` : ''}`
}

/** `group.created`, `group.updated` or `group.deleted`, naming the accounts added and removed. */
export function recordGroupActivity(tx: Tx, caller: Caller, change: GroupChange) {
  return recordAdminActivity(tx, caller, {
    action: `group.${change.verb}`,
    subject: { type: 'group', id: change.group.id },
    words: groupWords(change),
    details: {
      name: change.group.name,
      accountsAdded: [...(change.added ?? [])],
      accountsRemoved: [...(change.removed ?? [])],
    },
    now: change.now,
  })
}

/** `label.created`, `label.updated` or `label.deleted`. */
export function recordLabelActivity(
  tx: Tx,
  caller: Caller,
  change: { verb: Verb; label: { id: string; name: string }; fields?: object; now: Date },
) {
  const subject = `the label "${change.label.name}" (${change.label.id})`
  const fields = change.fields ? givenFields(change.fields) : ''
  return recordAdminActivity(tx, caller, {
    action: `label.${change.verb}`,
    subject: { type: 'label', id: change.label.id },
    words: `${change.verb} ${subject}${change.verb === 'updated' && fields ? `: changed its ${fields}` : ''}`,
    details: { name: change.label.name },
    now: change.now,
  })
}

/** What replacing a group's accounts `before` with `after` adds and removes. */
export function accountMoves(before: readonly string[], after: readonly string[] | undefined) {
  if (after === undefined) return { added: [], removed: [] }
  const was = new Set(before)
  const now = new Set(after)
  return { added: [...now].filter((id) => !was.has(id)), removed: before.filter((id) => !now.has(id)) }
}
