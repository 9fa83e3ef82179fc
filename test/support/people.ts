/** Members of a test workspace, each with a personal API token of theirs (role and user set as the token's). */
import { eq } from 'drizzle-orm'
import { apiTokens } from '../../src/db/schema'
import type { MemberRole } from '../../src/domain/people'
import { randomBase62 } from '../../src/lib/ids'
import { addMember } from '../../src/services/people/memberships'
import { createToken } from '../../src/services/tokens'
import { createUser } from '../../src/services/people/users'
import type { TestApp } from './test-app'

export interface TestMember {
  id: string
  email: string
  name: string
  token: string
}

export async function memberWithToken(t: TestApp, role: MemberRole, name = `The ${role}`): Promise<TestMember> {
  const user = await createUser(t.deps, {
    email: `m-${randomBase62(10)}@example.com`,
    name,
    password: 'a long enough password 7',
  })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, user.id, role))
  const created = await createToken(t.deps.db, t.workspaceId, `${name}'s token`)
  await t.deps.db.update(apiTokens).set({ userId: user.id, role }).where(eq(apiTokens.id, created.id))
  return { id: user.id, email: user.email, name: user.name, token: created.token }
}
