/**
 * Groups and labels through MCP: list_groups, list_labels, the groupId/labelId filters of
 * list_posts and get_analytics, a token limited to one group kept inside it by every tool, and
 * connect_account and best_times of a limited token.
 */
import { describe, expect, it } from 'vitest'
import { scoredPost, weekly, writeHistory } from '../support/analytics-history'
import { account, fixedClock } from '../support/fixtures'
import { group, label, limitedToken } from '../support/groups'
import { mcpSession, serveApp } from '../support/mcp'
import { createTestApp } from '../support/test-app'

describe('MCP groups and labels', () => {
  it('lists groups and labels, filters posts by them, and keeps a limited token inside its groups', async () => {
    const t = await createTestApp()
    const a = await account(t, 'MICROBLOG_NET', 'client_a')
    const b = await account(t, 'MICROBLOG_NET', 'client_b')
    const ga = await group(t, 'Client A', [a.id])
    const gb = await group(t, 'Client B', [b.id])
    const spring = await label(t, 'Spring')
    const base = await serveApp(t)
    const owner = await mcpSession(t, base)

    expect((await owner.ok('list_groups')).groups.map((g: any) => g.name)).toEqual(['Client A', 'Client B'])
    expect((await owner.ok('list_labels')).labels).toEqual([expect.objectContaining({ id: spring.id })])
    const draft = { type: 'IMAGE', mediaIds: [], action: 'draft', caption: 'hi' }
    const onA = await owner.ok('create_post', { ...draft, accountIds: [a.id], labelIds: [spring.id] })
    expect(onA.labels.map((l: any) => l.name)).toEqual(['Spring'])
    const onB = await owner.ok('create_post', { ...draft, accountIds: [b.id] })
    const both = await owner.ok('create_post', { ...draft, accountIds: [a.id, b.id] })
    const listed = async (s: typeof owner, args: Record<string, unknown>) =>
      (await s.ok('list_posts', args)).data.map((p: any) => p.id).sort()
    expect(await listed(owner, { groupId: gb.id })).toEqual([onB.id, both.id].sort())
    expect(await listed(owner, { labelId: spring.id })).toEqual([onA.id])
    expect((await owner.refused('list_posts', { labelId: 'lbl_none' })).code).toBe('not_found')
    expect((await owner.ok('get_analytics', { groupId: ga.id })).accounts).toHaveLength(1)

    const member = await mcpSession(t, base, await limitedToken(t, [ga.id]))
    expect((await member.ok('list_groups')).groups.map((g: any) => g.id)).toEqual([ga.id])
    expect((await member.ok('list_accounts')).accounts.map((x: any) => x.id)).toEqual([a.id])
    expect(await listed(member, {})).toEqual([onA.id, both.id].sort())
    expect((await member.refused('get_post', { id: onB.id })).code).toBe('not_found')
    expect((await member.refused('get_account', { id: b.id })).code).toBe('not_found')
    expect((await member.refused('delete_post', { id: onB.id })).code).toBe('not_found')
    expect((await member.refused('update_post', { id: both.id, changes: { caption: 'x' } })).code).toBe('forbidden')
    expect((await member.refused('create_post', { ...draft, accountIds: [b.id] })).code).toBe('account_not_found')
    expect((await member.refused('get_analytics', { groupId: gb.id })).code).toBe('not_found')
    expect((await member.ok('update_post', { id: onA.id, changes: { caption: 'ok' } })).caption).toBe('ok')
  })

  it('connects into the groups of a limited token, and gives it the best times of its accounts only', async () => {
    const t = await createTestApp({ clock: fixedClock('2026-05-15T12:00:00.000Z') })
    const a = await account(t, 'MICROBLOG_NET', 'client_a')
    const b = await account(t, 'PHOTO_NET', 'client_b')
    const ga = await group(t, 'Client A', [a.id])
    const gb = await group(t, 'Client B', [b.id])
    await writeHistory(t, [
      ...weekly('2026-05-05T18:00:00Z', 20).map((d) => scoredPost(a, d, 200)),
      ...weekly('2026-05-09T07:00:00Z', 20).map((d) => scoredPost(b, d, 500)),
    ])
    const base = await serveApp(t)
    const sandbox = { platform: 'PHOTO_NET', connection: 'SANDBOX' }

    const one = await mcpSession(t, base, await limitedToken(t, [ga.id]))
    expect((await one.ok('connect_account', sandbox)).url).toContain('/connect/')
    expect((await one.refused('connect_account', { ...sandbox, groupId: gb.id })).code).toBe('not_found')
    const best = await one.ok('best_times')
    expect(best).toMatchObject({ observations: 20 })
    expect(best.byPlatform.map((p: any) => p.platform)).toEqual(['MICROBLOG_NET'])

    const both = await mcpSession(t, base, await limitedToken(t, [ga.id, gb.id]))
    const refused = await both.refused('connect_account', sandbox)
    expect(refused.code).toBe('invalid_option')
    expect(refused.message).toContain('Client B')
    expect((await both.ok('connect_account', { ...sandbox, groupId: gb.id })).url).toContain('/connect/')
    expect((await both.ok('best_times')).observations).toBe(40)
  })
})
