/** The blog network's tests' setup: the app on the blog fake, one account, posting helpers. */
import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { accounts, posts, targets } from '../../src/db/schema'
import type { NetworkAdapter, PublishInput } from '../../src/networks/adapter'
import { buildTargetContent } from '../../src/services/publishing/target-content'
import { startBlogFake } from '../fakes/blog'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { jpeg, paint } from '../support/media'
import { createTestApp, type TestApp } from '../support/test-app'

export const START = '2026-11-21T10:00:00Z'
export const BLOG = { blogId: 't:AdaBakes0000000000001', blogName: 'ada-bakes' }
export const CREDS = {
  accessToken: 'tb_access_1',
  refreshToken: 'tb_refresh_1',
  expiresAt: '2026-11-21T10:40:00.000Z',
  ...BLOG,
}
export const CLIENT = { clientId: 'tumblr-key', clientSecret: 'tumblr-secret' }

export async function setupBlog(options: { withClient?: boolean; credentials?: Record<string, unknown> } = {}) {
  const clock = fixedClock(START)
  const fake = await startBlogFake()
  fake.state.clock = () => clock.now()
  const t = await createTestApp({
    clock,
    networks: {
      origins: { BLOG_NET_API_URL: fake.url },
      clients: options.withClient === false ? {} : { BLOG_NET: CLIENT },
    },
    publishing: { random: () => 0.5 },
  })
  const account = await realAccount(t, 'BLOG_NET', 'DIRECT_LOGIN', options.credentials ?? CREDS, BLOG.blogId)
  const adapter = t.deps.networks.adapterFor('BLOG_NET', 'DIRECT_LOGIN') as NetworkAdapter
  const advance = (sec: number) => clock.set(new Date(clock.now().getTime() + sec * 1000).toISOString())
  return { t, fake, clock, account, adapter, advance }
}

export async function blogPost(t: TestApp, accountId: string, body: Record<string, unknown>) {
  const res = await t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds: [accountId], mediaIds: [], action: 'now', ...body },
  })
  const created = await res.json()
  expect(res.ok, JSON.stringify(created)).toBe(true)
  return created as { id: string }
}

export const getPost = async (t: TestApp, id: string) => (await t.call('GET', `/v1/posts/${id}`)).json()
export const targetOf = async (t: TestApp, postId: string) =>
  (await t.deps.db.select().from(targets).where(eq(targets.postId, postId)))[0]!
export const storedCredentials = async (t: TestApp, accountId: string) => {
  const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, accountId))
  return { row: row!, credentials: await t.deps.cipher.decrypt(row!.credentials, accountId) }
}
export const photo = async (t: TestApp, color: [number, number, number], altText: string | null = null) => {
  const bytes = await jpeg(paint(40, 50, () => color))
  return { bytes, id: await storedMedia(t, { bytes, mimeType: 'image/jpeg', width: 800, height: 1000, altText }) }
}

/** The adapter called directly with the post's content and extra fields (title, options), as the engine would. */
export async function publishDirect(
  setup: Awaited<ReturnType<typeof setupBlog>>,
  postId: string,
  extra: Record<string, unknown>,
  progress: PublishInput['progress'] = {},
) {
  const { t, fake, account, adapter, clock } = setup
  const [row] = await t.deps.db.select().from(posts).where(eq(posts.id, postId))
  const content = { ...(await buildTargetContent(t.deps.db, row!, account.id, 'BLOG_NET')), ...extra }
  const saved: Record<string, unknown> = { ...progress }
  const result = await adapter.publish({
    idempotencyKey: 'tgt',
    accountId: account.id,
    connection: 'DIRECT_LOGIN',
    credentials: CREDS,
    content,
    progress,
    saveProgress: async (next) => void Object.assign(saved, next),
    attempt: 1,
    fetch,
    baseUrl: fake.url,
    now: clock.now(),
  })
  return { result, saved }
}
