/**
 * The community network's tests' common set-up: a test app whose clock the fake shares, an account
 * stored with a session the fake opened (as connect would store it), posts made through the API
 * with a title, a community per target and per-target options, and the engine run.
 */
import { expect } from 'vitest'
import type { NetworkAdapter } from '../../src/networks/adapter'
import { startCommunityFake } from '../fakes/community'
import { jpeg, paint } from '../support/media'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

export const START = '2026-11-21T10:00:00Z'

export async function setup(fakeOptions: { followed?: number } = {}) {
  const clock = fixedClock(START)
  const fake = await startCommunityFake({ now: () => clock.now(), ...fakeOptions })
  const t = await createTestApp({
    clock,
    publishing: { backoffBaseSec: 10, maxAttempts: 5, leaseSec: 60, sweepGraceSec: 30, random: () => 0.5 },
  })
  const creds = { instanceUrl: fake.url, username: 'alice', jwt: fake.openSession(), personId: 7 }
  const acct = await realAccount(t, 'COMMUNITY_NET', 'APP_PASSWORD', creds, `${fake.url}/u/alice`)
  const adapter = t.deps.networks.adapterFor('COMMUNITY_NET', 'APP_PASSWORD') as NetworkAdapter
  const later = (sec: number) => clock.set(new Date(clock.now().getTime() + sec * 1000).toISOString())
  return { t, clock, fake, acct, creds, adapter, later }
}

/** POST /v1/posts to one account, in community `community` unless the body says otherwise. */
export async function post(
  t: TestApp,
  accountId: string,
  body: Record<string, unknown>,
  community: string | null = '1',
) {
  const res = await t.call('POST', '/v1/posts', {
    body: {
      type: 'IMAGE',
      mediaIds: [],
      accountIds: [accountId],
      action: 'now',
      destinations: community ? { [accountId]: community } : null,
      ...body,
    },
  })
  const json = await res.json()
  expect(res.status, JSON.stringify(json)).toBe(200)
  return json as { id: string }
}

/** The same request, expected refused: its status and error body. */
export async function refused(t: TestApp, accountId: string, body: Record<string, unknown>) {
  const res = await t.call('POST', '/v1/posts', {
    body: {
      type: 'IMAGE',
      mediaIds: [],
      accountIds: [accountId],
      action: 'now',
      destinations: { [accountId]: '1' },
      ...body,
    },
  })
  return { status: res.status, error: (await res.json()).error }
}

export const getPost = async (t: TestApp, id: string) => (await t.call('GET', `/v1/posts/${id}`)).json()

export const picture = async (t: TestApp, altText: string | null = null) =>
  storedMedia(t, {
    bytes: await jpeg(paint(64, 36, () => [30, 90, 200])),
    mimeType: 'image/jpeg',
    width: 1280,
    height: 720,
    altText,
  })
