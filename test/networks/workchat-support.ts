/** Shared setup of the WORKCHAT_NET tests: the fake, the app on a fixed clock, a connected bot. */
import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import type { Connection } from '../../src/domain/vocabulary'
import type { NetworkAdapter } from '../../src/networks/adapter'
import { startWorkchatFake } from '../fakes/workchat'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { jpeg, paint } from '../support/media'
import { createTestApp, type TestApp } from '../support/test-app'

export const START = '2026-11-21T10:00:00Z'
export const CLIENT = { clientId: '1111.2222', clientSecret: 'wc-secret' }

export async function setup(
  options: {
    connection?: Exclude<Connection, 'SANDBOX'>
    credentials?: Record<string, unknown>
    rotation?: boolean
    shareDelayReads?: number
    channels?: number
    withClient?: boolean
  } = {},
) {
  const clock = fixedClock(START)
  const fake = await startWorkchatFake({
    rotation: options.rotation,
    shareDelayReads: options.shareDelayReads,
    channels: options.channels,
  })
  fake.state.clock = () => clock.now()
  const t = await createTestApp({
    clock,
    networks: {
      origins: { WORKCHAT_NET_API_URL: fake.url },
      clients: options.withClient === false ? {} : { WORKCHAT_NET: CLIENT },
    },
    publishing: { backoffBaseSec: 10, maxAttempts: 4, leaseSec: 60, sweepGraceSec: 30, random: () => 0.5 },
  })
  const connection = options.connection ?? 'BOT_TOKEN'
  const credentials = options.credentials ?? {
    botToken: fake.state.accessToken,
    botUserId: fake.botUser,
  }
  const account = await realAccount(t, 'WORKCHAT_NET', connection, credentials, `T0TEAM001:${fake.botUser}`)
  const adapter = t.deps.networks.adapterFor('WORKCHAT_NET', connection) as NetworkAdapter
  const advance = (sec: number) => clock.set(new Date(clock.now().getTime() + sec * 1000).toISOString())
  return { t, fake, clock, account, adapter, advance, credentials }
}

/** A post into `channel` for every account it names (unless the body sets `destinations`). */
export async function createPost(t: TestApp, body: Record<string, unknown>, channel = 'C0GENERAL1') {
  const destinations = Object.fromEntries(((body.accountIds ?? []) as string[]).map((id) => [id, channel]))
  const res = await t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', mediaIds: [], action: 'now', destinations, ...body },
  })
  const created = await res.json()
  expect(res.status, JSON.stringify(created)).toBe(200)
  return created as { id: string }
}

export const getPost = async (t: TestApp, id: string) => (await t.call('GET', `/v1/posts/${id}`)).json()
export const targetRow = async (t: TestApp, postId: string) =>
  (await t.deps.db.select().from(targets).where(eq(targets.postId, postId)))[0]!
export const storedCredentials = async (t: TestApp, accountId: string) => {
  const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, accountId))
  return { row: row!, credentials: await t.deps.cipher.decrypt(row!.credentials, accountId) }
}

export async function photo(t: TestApp, color: [number, number, number], altText: string | null = null) {
  const bytes = await jpeg(paint(40, 30, () => color))
  return { bytes, id: await storedMedia(t, { bytes, mimeType: 'image/jpeg', width: 1200, height: 900, altText }) }
}

export async function clip(t: TestApp, seed = 7) {
  const bytes = Uint8Array.from({ length: 50_000 }, (_, i) => (i * seed) % 251)
  const id = await storedMedia(t, { bytes, mimeType: 'video/mp4', width: 1280, height: 720, durationSec: 12 })
  return { bytes, id }
}
