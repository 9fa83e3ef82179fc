/**
 * The local business network's tests: an app whose LOCAL_NET origins all point at the loopback
 * fake, an account for the Corner Bakery location, and posting helpers.
 */
import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import type { NetworkAdapter } from '../../src/networks/adapter'
import { startLocalFake } from '../fakes/local'
import { jpeg, paint } from '../support/media'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

export const START = '2026-11-21T10:00:00Z'
export const CREDS = {
  accessToken: 'gbp_access_1',
  refreshToken: 'gbp_refresh_1',
  expiresAt: '2026-11-21T11:00:00.000Z',
  accountName: 'accounts/101',
  locationName: 'accounts/101/locations/9001',
}
export const CLIENT = { clientId: 'gbp_client', clientSecret: 'gbp_secret' }

export const localOrigins = (url: string) => ({
  LOCAL_NET_API_URL: url,
  LOCAL_NET_ACCOUNTS_URL: url,
  LOCAL_NET_LOCATIONS_URL: url,
  LOCAL_NET_OAUTH_URL: url,
  LOCAL_NET_AUTHORIZE_URL: url,
})

export async function setupLocal(options: { withClient?: boolean; credentials?: Record<string, unknown> } = {}) {
  const clock = fixedClock(START)
  const fake = await startLocalFake()
  fake.state.clock = () => clock.now()
  const t = await createTestApp({
    clock,
    networks: {
      origins: localOrigins(fake.url),
      clients: options.withClient === false ? {} : { LOCAL_NET: CLIENT },
    },
    publishing: { random: () => 0.5 },
  })
  const account = await realAccount(t, 'LOCAL_NET', 'DIRECT_LOGIN', options.credentials ?? CREDS, 'locations/9001')
  const adapter = t.deps.networks.adapterFor('LOCAL_NET', 'DIRECT_LOGIN') as NetworkAdapter
  const advance = (sec: number) => clock.set(new Date(clock.now().getTime() + sec * 1000).toISOString())
  return { t, fake, clock, account, adapter, advance }
}

/** Creates a post for the account (published now unless `action` says otherwise); the answer must be OK. */
export async function localPost(
  t: TestApp,
  accountId: string,
  body: Record<string, unknown>,
  options: Record<string, unknown> | null = null,
) {
  const res = await createLocalPost(t, accountId, body, options)
  const created = await res.json()
  expect(res.ok, JSON.stringify(created)).toBe(true)
  return created as { id: string }
}

export const createLocalPost = (
  t: TestApp,
  accountId: string,
  body: Record<string, unknown>,
  options: Record<string, unknown> | null = null,
) =>
  t.call('POST', '/v1/posts', {
    body: {
      type: 'IMAGE',
      accountIds: [accountId],
      mediaIds: [],
      action: 'now',
      ...(options ? { targetOptions: { [accountId]: options } } : {}),
      ...body,
    },
  })

export const getPost = async (t: TestApp, id: string) => (await t.call('GET', `/v1/posts/${id}`)).json()
export const targetOf = async (t: TestApp, postId: string) =>
  (await t.deps.db.select().from(targets).where(eq(targets.postId, postId)))[0]!
export const storedCredentials = async (t: TestApp, accountId: string) => {
  const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, accountId))
  return { row: row!, credentials: await t.deps.cipher.decrypt(row!.credentials, accountId) }
}

/** A JPEG photo in the test's store, at the public URL the network's fake fetches. */
export async function photo(t: TestApp, color: [number, number, number] = [200, 120, 40]) {
  const bytes = await jpeg(paint(80, 60, () => color))
  return { bytes, id: await storedMedia(t, { bytes, mimeType: 'image/jpeg', width: 1200, height: 900 }) }
}
