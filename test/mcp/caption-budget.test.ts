/**
 * A caption budget per account: the microblog network's user lookup reports the paid tier
 * (`subscription_type`), read at connect and at each token renewal, shown by list_accounts and
 * `GET /v1/accounts`, and used by the dry run, create and publish instead of the platform's 280.
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../src/db/schema'
import { connectAccount } from '../../src/services/accounts/connection'
import { usableCredentials } from '../../src/services/accounts/credentials'
import { startMicroblogFake } from '../fakes/microblog'
import { runDue } from '../support/engine'
import { realAccount } from '../support/fixtures'
import { mcpSession, serveApp } from '../support/mcp'
import { createTestApp } from '../support/test-app'

const CLIENT = { clientId: 'client-1', clientSecret: 'secret-1' }
const LONG = 'a'.repeat(1000)

async function setup() {
  const fake = await startMicroblogFake({
    client: { id: CLIENT.clientId, secret: CLIENT.clientSecret },
    subscriptionType: 'Premium',
  })
  const t = await createTestApp({
    networks: { origins: { MICROBLOG_NET_API_URL: fake.url }, clients: { MICROBLOG_NET: CLIENT } },
  })
  const credentials = {
    accessToken: 'access-1',
    refreshToken: 'refresh-1',
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    userId: fake.userId,
  }
  const premium = await connectAccount(t.deps, {
    workspaceId: t.workspaceId,
    platform: 'MICROBLOG_NET',
    connection: 'DIRECT_LOGIN',
    credentials,
  })
  // Connected before the tier was read (or never subscribed): no budget of its own.
  const basic = await realAccount(t, 'MICROBLOG_NET', 'DIRECT_LOGIN', credentials, fake.userId)
  return { t, fake, premium, basic }
}

describe('caption budget per account', () => {
  it('reads the paid tier at connect, shows it, and lets only that account take a 1,000-character post', async () => {
    const { t, fake, premium, basic } = await setup()
    expect(premium.captionMaxLength).toBe(25_000)
    const session = await mcpSession(t, await serveApp(t))
    const { accounts: listed } = await session.ok('list_accounts')
    expect(listed.map((a: { id: string; captionMaxLength: number | null }) => [a.id, a.captionMaxLength])).toEqual([
      [premium.id, 25_000],
      [basic.id, null],
    ])
    const rest = await (await t.call('GET', `/v1/accounts/${premium.id}`)).json()
    expect(rest.captionMaxLength).toBe(25_000)

    const post = { type: 'IMAGE', mediaIds: [], action: 'now', caption: LONG }
    const accepted = await session.ok('preview_post', { ...post, accountIds: [premium.id] })
    expect(accepted).toMatchObject({
      valid: true,
      targets: [{ captionLength: 1000, captionLimit: 25_000, errors: [] }],
    })
    const refusedPreview = await session.ok('preview_post', { ...post, accountIds: [basic.id] })
    expect(refusedPreview).toMatchObject({ valid: false, targets: [{ captionLimit: 280 }] })
    expect(refusedPreview.targets[0].errors).toMatchObject([{ code: 'caption_too_long', limit: 280, actual: 1000 }])

    const created = await t.call('POST', '/v1/posts', { body: { ...post, accountIds: [premium.id] } })
    expect(created.status).toBe(200)
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.tweets.map((x) => x.text)).toEqual([LONG])

    const refused = await t.call('POST', '/v1/posts', { body: { ...post, accountIds: [basic.id] } })
    expect(refused.status).toBe(422)
    const { error } = await refused.json()
    expect(error.code).toBe('caption_too_long')
    expect(error.message).toContain('MICROBLOG_NET allows 280')
    expect(error.details[0]).toMatchObject({ limit: 280, actual: 1000 })
    // Both together: the caption must fit each account it goes to; the message names the smaller budget's account.
    const both = await session.refused('create_post', { ...post, accountIds: [premium.id, basic.id] })
    expect(both.code).toBe('caption_too_long')
    expect(both.message).toContain(`allows 280 for account ${basic.id}`)

    // A draft written for the long-post account publishes through publish_post with the same budget.
    const draft = await session.ok('create_post', {
      ...post,
      caption: 'b'.repeat(1000),
      action: 'draft',
      accountIds: [premium.id],
    })
    expect((await session.ok('publish_post', { id: draft.id })).status).toBe('PUBLISHING')
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.tweets.map((x) => x.text.length)).toEqual([1000, 1000])
  })

  it('reads the tier again at each token renewal: a lapsed subscription is back to the platform budget', async () => {
    const { t, fake, premium } = await setup()
    const adapter = t.deps.networks.adapterFor('MICROBLOG_NET', 'DIRECT_LOGIN')!
    const rowOf = async () => (await t.deps.db.select().from(accounts).where(eq(accounts.id, premium.id)))[0]!
    fake.setSubscription('None')
    const renewed = await usableCredentials(t.deps, await rowOf(), adapter, { force: true })
    expect(renewed).toMatchObject({ ok: true, refreshed: true })
    expect((await rowOf()).captionMaxLength).toBeNull()
    const session = await mcpSession(t, await serveApp(t))
    const preview = await session.ok('preview_post', {
      type: 'IMAGE',
      mediaIds: [],
      action: 'now',
      caption: LONG,
      accountIds: [premium.id],
    })
    expect(preview.targets[0].errors).toMatchObject([{ code: 'caption_too_long', limit: 280 }])

    fake.setSubscription('PremiumPlus')
    await usableCredentials(t.deps, await rowOf(), adapter, { force: true })
    expect((await rowOf()).captionMaxLength).toBe(25_000)
  })
})
