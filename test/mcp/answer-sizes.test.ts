/**
 * What `/mcp` costs an agent's context, measured as the bytes of the JSON-RPC answers the SDK's
 * client receives over real HTTP: `tools/list`, `best_times` without enough data, and `get_analytics`
 * of a workspace with months of history, by default and with `detail` (whose answer must hold all of
 * `GET /v1/analytics`). The listed schemas must still be what the SDK client's validator compiles.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { describe, expect, it } from 'vitest'
import { followerSnapshots } from '../../src/db/schema'
import type { PlatformId } from '../../src/domain/vocabulary'
import { type HistoryPost, scoredPost, writeHistory } from '../support/analytics-history'
import { account, fixedClock } from '../support/fixtures'
import { serveApp } from '../support/mcp'
import { createTestApp, type TestApp } from '../support/test-app'

const KB = 1024
const DAY = 86_400_000
const NOW = '2026-05-15T12:00:00.000Z'

/** An SDK client whose transport notes the size of each answer body it receives. */
async function measuredClient(t: TestApp, base: string) {
  const sizes: number[] = []
  const client = new Client({ name: 'size-test', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${t.token}`, 'X-Forwarded-For': t.ip } },
    fetch: async (url, init) => {
      const res = await fetch(url, init)
      sizes.push((await res.clone().arrayBuffer()).byteLength)
      return res
    },
  })
  await client.connect(transport)
  const listed = await client.listTools()
  const listBytes = sizes.at(-1)!
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`)
    return { bytes: sizes.at(-1)!, answer: result.structuredContent as any }
  }
  return { client, listed, listBytes, call, close: () => client.close() }
}

/** An account per platform, each with a follower count per day for `days` days and a post a day with figures. */
async function monthsOfHistory(t: TestApp, platforms: PlatformId[], days: number) {
  const now = Date.parse(NOW)
  const accounts = []
  const history: HistoryPost[] = []
  for (const [i, platform] of platforms.entries()) {
    const a = await account(t, platform, `brand_${platform.toLowerCase()}`)
    accounts.push(a)
    await t.deps.db.insert(followerSnapshots).values(
      Array.from({ length: days }, (_, d) => ({
        accountId: a.id,
        day: new Date(now - d * DAY).toISOString().slice(0, 10),
        followers: 2_000 * (i + 1) - d * 7 + (d % 5),
        collectedAt: new Date(now - d * DAY),
      })),
    )
    // Figures collected 3 days after publishing: the last post is 3 days old.
    for (let d = 3; d <= days; d++)
      history.push(scoredPost(a, new Date(now - d * DAY - (i + 3) * 3_600_000), 40 + (d % 17)))
  }
  await writeHistory(t, history)
  return accounts
}

describe('the size of /mcp answers', () => {
  it('lists the tools in at most 50 KB, in schemas the SDK client compiles (draft-07)', async () => {
    const t = await createTestApp()
    const { listed, listBytes, close } = await measuredClient(t, await serveApp(t))
    // Other tools join this list: the figure of today is in the message when it outgrows the budget.
    expect(listBytes, `tools/list answers ${listBytes} bytes`).toBeLessThanOrEqual(50 * KB)
    const validator = new AjvJsonSchemaValidator()
    for (const tool of listed.tools) {
      expect(tool.inputSchema.$schema, tool.name).toBe('http://json-schema.org/draft-07/schema#')
      expect(() => validator.getValidator(tool.inputSchema), tool.name).not.toThrow()
      if (tool.outputSchema) expect(() => validator.getValidator(tool.outputSchema!), tool.name).not.toThrow()
    }
    // The listed schema still tells a good call from a bad one.
    const create = validator.getValidator(listed.tools.find((tool) => tool.name === 'create_post')!.inputSchema)
    const post = { type: 'IMAGE', accountIds: ['acc_1'], mediaIds: [], action: 'schedule' }
    expect(create({ ...post, scheduledAt: '2026-12-01T09:30:00Z', recurrence: { frequency: 'weekly' } }).valid).toBe(
      true,
    )
    expect(create({ ...post, action: 'later' }).valid).toBe(false)
    expect(create({ ...post, captionOverrides: { NOT_A_NET: 'x' } }).valid).toBe(false)
    await close()
  })

  it('answers best_times without enough data in at most 1 KB: what is missing and how much is needed', async () => {
    const t = await createTestApp({ clock: fixedClock(NOW) })
    const { call, close } = await measuredClient(t, await serveApp(t))
    const micro = await account(t, 'MICROBLOG_NET')
    for (const platform of ['PHOTO_NET', 'SOCIALGRAPH_NET', 'VIDEOSHARE_NET', 'FEDERATED_NET', 'CHAT_NET'] as const)
      await account(t, platform)
    const week = 7 * DAY
    await writeHistory(
      t,
      [1, 2, 3].map((w) => scoredPost(micro, new Date(Date.parse(NOW) - w * week), 80)),
    )
    const { bytes, answer } = await call('best_times')
    expect(bytes, `best_times answers ${bytes} bytes`).toBeLessThanOrEqual(1 * KB)
    expect(answer).toEqual({
      insufficient: true,
      reason: 'few_posts',
      observations: 3,
      minObservations: 20,
      missing: expect.stringContaining('needs 20 posts'),
    })
    expect(answer.missing).toContain('there are 3')
    expect(answer.missing).toContain('CHAT_NET report no engagement')
    // The REST answer holds the same verdicts, with a grid of nulls per platform.
    const rest = await (await t.call('GET', '/v1/best-times')).json()
    expect(rest.overall).toMatchObject({ insufficient: true, reason: 'few_posts', observations: 3 })
    expect(rest.byPlatform.every((p: any) => p.report.insufficient)).toBe(true)
    await close()
  })

  it('answers get_analytics of months of history in at most 8 KB, and everything of /v1/analytics with detail', async () => {
    const t = await createTestApp({ clock: fixedClock(NOW) })
    const { call, close } = await measuredClient(t, await serveApp(t))
    const platforms: PlatformId[] = ['MICROBLOG_NET', 'PHOTO_NET', 'SOCIALGRAPH_NET', 'VIDEOSHARE_NET', 'MESSAGING_NET']
    const accounts = await monthsOfHistory(t, platforms, 120)
    const rest = await (await t.call('GET', '/v1/analytics')).json()
    expect(rest.recentPosts).toHaveLength(100)

    const brief = await call('get_analytics')
    expect(brief.bytes, `get_analytics answers ${brief.bytes} bytes`).toBeLessThanOrEqual(8 * KB)
    expect(brief.answer.accounts.map((a: any) => a.accountId)).toEqual(accounts.map((a) => a.id))
    expect(brief.answer.accounts[0]).toMatchObject({ followers: { value: 2_000 }, followersChange: 2_000 - 1_801 })
    expect(brief.answer.accounts[0].series).toBeUndefined()
    expect(brief.answer).toMatchObject({ postCount: 5 * 27 })
    expect(brief.answer.recentPosts).toBeUndefined()
    const best = Math.max(...rest.recentPosts.map((p: any) => p.engagement))
    expect(brief.answer.topPosts).toHaveLength(5)
    expect(brief.answer.topPosts[0].engagement).toBe(best)
    const counted = brief.answer.accounts.reduce((n: number, a: any) => n + a.posts.count, 0)
    expect(counted).toBe(5 * 27)

    // detail: all holds every figure of the REST answer.
    const all = await call('get_analytics', { detail: 'all' })
    const { accounts: detailed, recentPosts, timezone, generatedAt } = all.answer
    expect({ timezone, generatedAt, recentPosts }).toEqual({
      timezone: rest.timezone,
      generatedAt: rest.generatedAt,
      recentPosts: rest.recentPosts,
    })
    expect(detailed.map(({ followersChange: _c, posts: _p, ...a }: Record<string, unknown>) => a)).toEqual(
      rest.accounts,
    )
    // Each half on its own.
    const followers = (await call('get_analytics', { detail: 'followers' })).answer
    expect(followers.accounts[1].series).toEqual(rest.accounts[1].series)
    expect(followers.recentPosts).toBeUndefined()
    const posts = await call('get_analytics', { detail: 'posts' })
    expect(posts.answer.recentPosts).toEqual(rest.recentPosts)
    expect(posts.answer.accounts[0].series).toBeUndefined()
    console.info(
      `get_analytics: ${brief.bytes} bytes by default, ${all.bytes} with detail: all, ${posts.bytes} with detail: posts`,
    )
    await close()
  })
})
