/** Account groups, labels and group-limited tokens for the tests of visibility. */
import { sql } from 'drizzle-orm'
import type { MemberRole } from '../../src/domain/people'
import { createToken } from '../../src/services/tokens'
import type { TestApp } from './test-app'

/** Creates a group over the API (as the workspace's owner token); answers its record. */
export async function group(t: TestApp, name: string, accountIds: string[] = []) {
  const res = await t.call('POST', '/v1/groups', { body: { name, accountIds } })
  if (res.status !== 200) throw new Error(`group ${name}: ${res.status} ${await res.text()}`)
  return res.json()
}

/** Creates a label over the API; answers its record. */
export async function label(t: TestApp, name: string, color?: string) {
  const res = await t.call('POST', '/v1/labels', { body: { name, ...(color ? { color } : {}) } })
  if (res.status !== 200) throw new Error(`label ${name}: ${res.status} ${await res.text()}`)
  return res.json()
}

/** A personal API token of the workspace with `role`, limited to `groupIds`. */
export async function limitedToken(t: TestApp, groupIds: string[] | null, role: MemberRole = 'member') {
  const created = await createToken(t.deps.db, t.workspaceId, `limited ${role}`)
  await t.deps.db.execute(sql`update api_tokens set role = ${role},
    group_ids = ${groupIds === null ? null : JSON.stringify(groupIds)}::jsonb where id = ${created.id}`)
  return created.token
}
