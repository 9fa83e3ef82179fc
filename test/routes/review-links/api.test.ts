import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { activityLog, reviewLinks } from '../../../src/db/schema'
import { sha256Hex } from '../../../src/lib/crypto'
import { createTestApp } from '../../support/test-app'
import { createLink, groupWithAccounts } from '../../support/review-links'

describe('/v1/review-links', () => {
  it('creates a link for a group: the url once, only its hash stored, listed without it, revoked', async () => {
    const t = await createTestApp()
    const group = await groupWithAccounts(t, 'Acme', ['acme'])
    const { link, path } = await createLink(t, group.id, { name: 'Acme team', expiresInDays: 7 })
    expect(link).toMatchObject({
      groupId: group.id,
      groupName: 'Acme',
      name: 'Acme team',
      state: 'active',
      createdBy: { kind: 'token' },
      revokedAt: null,
      lastUsedAt: null,
    })
    expect(new Date(link.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000)
    expect(link.url).toMatch(/^http:\/\/localhost\/review\/rvl_[0-9A-Za-z]{22}\.\d+\.[0-9A-Za-z]{26}\.[\w-]{43}$/)
    const token = path.slice('/review/'.length)
    const [row] = await t.deps.db.select().from(reviewLinks).where(eq(reviewLinks.id, link.id))
    expect(row!.tokenHash).toBe(await sha256Hex(token))
    expect(JSON.stringify(row)).not.toContain(token)

    const list = await (await t.call('GET', '/v1/review-links')).json()
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ id: link.id, state: 'active' })
    expect(list[0].url).toBeUndefined()

    const revoked = await t.call('DELETE', `/v1/review-links/${link.id}`)
    expect(revoked.status).toBe(200)
    expect(await revoked.json()).toMatchObject({ id: link.id, state: 'revoked' })
    const again = await t.call('DELETE', `/v1/review-links/${link.id}`)
    expect((await again.json()).state).toBe('revoked')

    const actions = await t.deps.db
      .select({ action: activityLog.action, actorKind: activityLog.actorKind, ip: activityLog.ip })
      .from(activityLog)
      .where(and(eq(activityLog.workspaceId, t.workspaceId), eq(activityLog.subjectId, link.id)))
    expect(actions.map((a) => a.action).sort()).toEqual(['review_link.created', 'review_link.revoked'])
    expect(actions.every((a) => a.actorKind === 'token' && a.ip === t.ip)).toBe(true)
  })

  it('defaults to 14 days, refuses 0 and 91 days (400), an unknown or foreign group (404)', async () => {
    const t = await createTestApp()
    const other = await createTestApp()
    const group = await groupWithAccounts(t, 'Acme', [])
    const foreign = await groupWithAccounts(other, 'Theirs', [])
    const { link } = await createLink(t, group.id)
    const days = (new Date(link.expiresAt).getTime() - new Date(link.createdAt).getTime()) / 86_400_000
    expect(Math.round(days)).toBe(14)
    for (const body of [
      { groupId: group.id, name: 'x', expiresInDays: 0 },
      { groupId: group.id, name: 'x', expiresInDays: 91 },
      { groupId: group.id, name: '' },
    ]) {
      const res = await t.call('POST', '/v1/review-links', { body })
      expect(res.status).toBe(400)
      expect((await res.json()).error.code).toBe('invalid_request')
    }
    for (const groupId of ['grp_unknown', foreign.id]) {
      const res = await t.call('POST', '/v1/review-links', { body: { groupId, name: 'x' } })
      expect(res.status).toBe(404)
      const { error } = await res.json()
      expect(error).toMatchObject({ code: 'not_found', details: [{ path: 'groupId' }] })
      expect(JSON.stringify(error)).not.toContain('Theirs')
    }
  })

  it("another workspace's link is 404 to revoke and absent from the list", async () => {
    const t = await createTestApp()
    const other = await createTestApp()
    const group = await groupWithAccounts(other, 'Theirs', [])
    const { link } = await createLink(other, group.id)
    expect((await t.call('DELETE', `/v1/review-links/${link.id}`)).status).toBe(404)
    expect(await (await t.call('GET', '/v1/review-links')).json()).toEqual([])
    const [row] = await other.deps.db.select().from(reviewLinks).where(eq(reviewLinks.id, link.id))
    expect(row!.revokedAt).toBeNull()
  })
})
