/** A test app whose networks are the in-memory inbox network, with one account and one comment on it. */
import { rulesFor } from '../../src/domain/rules/index'
import { PLATFORM_IDS, type PlatformId } from '../../src/domain/vocabulary'
import { account, fixedClock } from './fixtures'
import { inboxNetwork } from './inbox-network'
import { seedComments } from './inbox-seed'
import { createTestApp, type TestApp } from './test-app'

const ACTIONS = ['reply', 'hide', 'delete', 'like'] as const
/** A network whose rules allow every action, and one that refuses at least one. */
export const ALL_ALLOWED = PLATFORM_IDS.find((p) => ACTIONS.every((a) => rulesFor(p).inbox?.[a] === true))!
export const SOME_REFUSED = PLATFORM_IDS.map((p) => ({ p, refused: ACTIONS.find((a) => rulesFor(p).inbox?.[a] !== true) })).find(
  (x) => x.refused !== undefined,
)

export async function inboxSetup(platform: PlatformId = ALL_ALLOWED, options: Parameters<typeof inboxNetwork>[0] = {}) {
  const network = inboxNetwork(options)
  const clock = fixedClock('2026-11-22T10:00:00Z')
  const t = await createTestApp({ clock, networkRegistry: network.registry })
  const a = await account(t, platform)
  network.add('net_1')
  const [id] = await seedComments(t.deps.db, [
    { workspaceId: t.workspaceId, accountId: a.id, platform, externalId: 'net_1', createdAt: new Date('2026-11-21T10:00:00Z') },
  ])
  return { t, a, network, clock, id: id! }
}

export async function json(t: TestApp, method: string, path: string, body?: unknown, headers?: Record<string, string>) {
  const res = await t.call(method, path, { ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) })
  return { status: res.status, headers: res.headers, body: (await res.json()) as any }
}

