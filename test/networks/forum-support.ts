/**
 * The forum network's tests' shared setup: the fake (both of its origins on one server), a test app
 * pointed at it with this service's OAuth client and User-Agent, a connected account, and posts
 * made through the API with a subreddit and options per target.
 */
import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import type { NetworkAdapter } from '../../src/networks/adapter'
import { startForumFake } from '../fakes/forum'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { jpeg, mp4, paint } from '../support/media'
import { createTestApp, type TestApp } from '../support/test-app'

export const START = '2026-11-21T10:00:00Z'
export const USER_AGENT = 'server:com.example.publisher:v2.1.0 (by /u/publisher_dev)'
export const CREDS = {
  accessToken: 'forum_access_1',
  refreshToken: 'forum_refresh_1',
  expiresAt: '2026-11-21T11:00:00.000Z',
  username: 'corner_bakery',
}
export const CLIENT = { clientId: 'forum-client', clientSecret: 'forum-secret', userAgent: USER_AGENT }

export async function setup(
  options: { withClient?: boolean; credentials?: Record<string, unknown>; subreddits?: number; budget?: number } = {},
) {
  const clock = fixedClock(START)
  const fake = await startForumFake({ subreddits: options.subreddits, budget: options.budget })
  fake.state.clock = () => clock.now()
  const t = await createTestApp({
    clock,
    networks: {
      origins: { FORUM_NET_API_URL: fake.url, FORUM_NET_OAUTH_URL: fake.url, FORUM_NET_AUTHORIZE_URL: fake.url },
      clients: options.withClient === false ? {} : { FORUM_NET: CLIENT },
    },
    publishing: { random: () => 0.5 },
  })
  const account = await realAccount(t, 'FORUM_NET', 'DIRECT_LOGIN', options.credentials ?? CREDS, 't2_a1b2c3')
  const adapter = t.deps.networks.adapterFor('FORUM_NET', 'DIRECT_LOGIN') as NetworkAdapter
  const advance = (sec: number) => clock.set(new Date(clock.now().getTime() + sec * 1000).toISOString())
  return { t, fake, clock, account, adapter, advance }
}

/** POST /v1/posts to the account's subreddit `sr` (null: none); the raw answer. */
export async function submit(
  t: TestApp,
  accountId: string,
  body: Record<string, unknown>,
  sr: string | null = 'bakers',
  options: Record<string, unknown> | null = null,
) {
  return t.call('POST', '/v1/posts', {
    body: {
      type: 'IMAGE',
      accountIds: [accountId],
      mediaIds: [],
      action: 'now',
      destinations: sr ? { [accountId]: sr } : null,
      targetOptions: options ? { [accountId]: options } : null,
      ...body,
    },
  })
}

/** As `submit`, expecting the post to be accepted. */
export async function post(...args: Parameters<typeof submit>): Promise<{ id: string }> {
  const res = await submit(...args)
  const created = await res.json()
  expect(res.ok, JSON.stringify(created)).toBe(true)
  return created
}

export const getPost = async (t: TestApp, id: string) => (await t.call('GET', `/v1/posts/${id}`)).json()
export const targetOf = async (t: TestApp, postId: string) =>
  (await t.deps.db.select().from(targets).where(eq(targets.postId, postId)))[0]!
export const storedCredentials = async (t: TestApp, accountId: string) => {
  const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, accountId))
  return { row: row!, credentials: await t.deps.cipher.decrypt(row!.credentials, accountId) }
}

export async function image(t: TestApp, color: [number, number, number], altText: string | null = null) {
  const bytes = await jpeg(paint(40, 30, () => color))
  return { bytes, id: await storedMedia(t, { bytes, mimeType: 'image/jpeg', width: 1080, height: 566, altText }) }
}

export async function video(t: TestApp, durationSec = 20) {
  const bytes = mp4({ durationSec, width: 1280, height: 720 })
  return { bytes, id: await storedMedia(t, { bytes, mimeType: 'video/mp4', width: 1280, height: 720, durationSec }) }
}
