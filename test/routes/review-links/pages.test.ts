import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { activityLog, reviewLinks } from '../../../src/db/schema'
import { createCredentialCipher, generateCredentialsKey } from '../../../src/infra/credential-cipher'
import { fixedClock } from '../../support/fixtures'
import { waitForRoomInCurrentMinute } from '../../support/minute'
import { createTestApp, randomIp, type TestApp } from '../../support/test-app'
import { createLink, groupWithAccounts, postInReview, visitor } from '../../support/review-links'

/** A workspace with two groups, posts of each, and a link for the first. */
async function setUp(t?: TestApp) {
  t ??= await createTestApp()
  const acme = await groupWithAccounts(t, 'Acme', ['acme_news'])
  const other = await groupWithAccounts(t, 'Globex', ['globex_news'])
  const acmeId = acme.accounts[0]!.id
  const first = await postInReview(t, [acmeId], 'Acme spring launch')
  const second = await postInReview(t, [acmeId], 'Acme summer sale')
  const draft = await postInReview(t, [acmeId], 'Acme private draft', false)
  const theirs = await postInReview(t, [other.accounts[0]!.id], 'Globex secret plan')
  const { link, path } = await createLink(t, acme.id)
  return { t, acme, other, first, second, draft, theirs, link, path }
}

/** A visitor who opened the link and gave a name. */
async function named(t: TestApp, path: string, name = 'Dana') {
  const v = visitor(t)
  const page = await v.get(path)
  expect(page.status).toBe(200)
  const html = await page.text()
  expect(html).toContain('Your name')
  const res = await v.post(`${path}/name`, { _csrf: v.csrfOf(html), name })
  expect(res.status).toBe(303)
  expect(res.headers.get('location')).toBe(path)
  return v
}

describe('review link pages', () => {
  it('ask for a name, then show only the group’s upcoming posts with their previews, under strict headers', async () => {
    const { t, path, link } = await setUp()
    const v = await named(t, path)
    const res = await v.get(path)
    expect(res.status).toBe(200)
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    expect(res.headers.get('x-robots-tag')).toContain('noindex')
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self'")
    expect(res.headers.get('cache-control')).toBe('no-store')
    const html = await res.text()
    expect(html).toContain('Reviewing as <strong>Dana</strong>')
    expect(html).toContain('Acme spring launch')
    expect(html).toContain('Acme summer sale')
    expect(html).toContain('preview-card')
    expect(html).toContain('acme_news')
    expect(html).not.toContain('Acme private draft')
    expect(html).not.toContain('Globex')
    expect(html).not.toContain('/app/w/')
    const cookies = v.jar
    expect(cookies.get('sps_review_name')).toBe('Dana')
    const [row] = await t.deps.db.select().from(reviewLinks).where(eq(reviewLinks.id, link.id))
    expect(row!.lastUsedAt).not.toBeNull()
  })

  it('approves one post and asks changes on another, as the visitor, each in the activity log with the address', async () => {
    const { t, path, first, second, link } = await setUp()
    const v = await named(t, path)
    const html = await (await v.get(path)).text()
    const csrf = v.csrfOf(html)
    const approved = await v.post(`${path}/posts/${first.id}/approve`, { _csrf: csrf, version: String(first.version) })
    expect(approved.status).toBe(303)
    expect(approved.headers.get('location')).toBe(`${path}?done=approved#post-${first.id}`)
    const changes = await v.post(`${path}/posts/${second.id}/request-changes`, {
      _csrf: csrf,
      version: String(second.version),
      comment: 'Use the new logo',
    })
    expect(changes.status).toBe(303)
    const a = await (await t.call('GET', `/v1/posts/${first.id}`)).json()
    expect(a).toMatchObject({
      status: 'APPROVED',
      approval: { decidedBy: { kind: 'review_link', id: link.id, name: 'Dana (review link)' } },
    })
    const b = await (await t.call('GET', `/v1/posts/${second.id}`)).json()
    expect(b).toMatchObject({ status: 'CHANGES_REQUESTED', approval: { comment: 'Use the new logo' } })
    const entries = await t.deps.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.workspaceId, t.workspaceId), eq(activityLog.actorKind, 'review_link')))
    expect(entries.map((e) => e.action).sort()).toEqual([
      'post.approved',
      'post.changes_requested',
      'review_link.visited',
    ])
    for (const e of entries) {
      expect(e.actorId).toBe(link.id)
      expect(e.ip).toBe(t.ip)
      expect(e.actor).toMatchObject({ kind: 'review_link', name: 'Dana (review link)' })
    }
    const after = await (await v.get(`${path}?done=approved`)).text()
    expect(after).toContain('Approved. The team sees your approval now.')
  })

  it('a post changed since it was shown: 409, the page says so and shows it again; nothing decided', async () => {
    const { t, path, first } = await setUp()
    const v = await named(t, path)
    const csrf = v.csrfOf(await (await v.get(path)).text())
    const stale = await v.post(`${path}/posts/${first.id}/approve`, {
      _csrf: csrf,
      version: String(first.version - 1 || 99),
    })
    expect(stale.status).toBe(409)
    const html = await stale.text()
    expect(html).toContain('This post changed since you opened the page')
    expect(html).toContain('Acme spring launch')
    expect((await (await t.call('GET', `/v1/posts/${first.id}`)).json()).status).toBe('IN_REVIEW')
  })

  it('refuses a post of another group (404), a form without its token or from another site (403), an empty comment (400)', async () => {
    const { t, path, first, theirs } = await setUp()
    const v = await named(t, path)
    const csrf = v.csrfOf(await (await v.get(path)).text())
    const foreign = await v.post(`${path}/posts/${theirs.id}/approve`, { _csrf: csrf, version: String(theirs.version) })
    expect(foreign.status).toBe(404)
    expect(await foreign.text()).not.toContain('Globex secret plan')
    const noToken = await v.post(`${path}/posts/${first.id}/approve`, { version: String(first.version) })
    expect(noToken.status).toBe(403)
    const crossSite = await v.post(
      `${path}/posts/${first.id}/approve`,
      { _csrf: csrf, version: String(first.version) },
      { origin: 'https://evil.example' },
    )
    expect(crossSite.status).toBe(403)
    const empty = await v.post(`${path}/posts/${first.id}/request-changes`, {
      _csrf: csrf,
      version: String(first.version),
      comment: '  ',
    })
    expect(empty.status).toBe(400)
    expect(await empty.text()).toContain('Write what should change')
    for (const id of [first.id, theirs.id])
      expect((await (await t.call('GET', `/v1/posts/${id}`)).json()).status).toBe('IN_REVIEW')
  })

  it('a made-up, altered or foreign-signed token is 404 and shows nothing', async () => {
    const { t, path } = await setUp()
    const token = path.slice('/review/'.length)
    const [id, exp, random, sig] = token.split('.') as [string, string, string, string]
    const otherCipher = await createCredentialCipher(generateCredentialsKey())
    const payload = `${id}.${exp}.${random}`
    const later = `${id}.${Number(exp) + 86_400}.${random}`
    const flip = (s: string) => (s[0] === 'A' ? `B${s.slice(1)}` : `A${s.slice(1)}`)
    for (const bad of [
      'nothing',
      `${payload}.${flip(sig)}`,
      `${later}.${sig}`,
      `${id}.${exp}.${flip(random)}.${sig}`,
      `${payload}.${await otherCipher.sign('review-link', payload)}`,
    ]) {
      const res = await visitor(t).get(`/review/${bad}`)
      expect(res.status).toBe(404)
      const html = await res.text()
      expect(html).toContain('Review link not found')
      expect(html).not.toContain('Acme')
    }
  })

  it('a revoked link (410) and an expired one (410) say so and nothing else', async () => {
    const clock = fixedClock(new Date().toISOString())
    const t = await createTestApp({ clock })
    const { path, link } = await setUp(t)
    await t.call('DELETE', `/v1/review-links/${link.id}`)
    const revoked = await visitor(t).get(path)
    expect(revoked.status).toBe(410)
    const text = await revoked.text()
    expect(text).toContain('withdrawn')
    expect(text).not.toContain('Acme')

    const fresh = await createLink(t, link.groupId, { expiresInDays: 1 })
    expect((await visitor(t).get(fresh.path)).status).toBe(200)
    clock.set(new Date(clock.now().getTime() + 86_400_000 + 1000).toISOString())
    const expired = await visitor(t).get(fresh.path)
    expect(expired.status).toBe(410)
    const html = await expired.text()
    expect(html).toContain('expired')
    expect(html).not.toContain('Acme')
    const list = await (await t.call('GET', '/v1/review-links')).json()
    expect(list.map((l: { state: string }) => l.state).sort()).toEqual(['expired', 'revoked'])
  })

  it('counts every request in the reviewLink bucket: past 30 a minute from one address, 429 with Retry-After', async () => {
    await waitForRoomInCurrentMinute(15_000, { onlyWithRedis: true })
    const { t, path } = await setUp()
    const ip = randomIp()
    const v = visitor(t, ip)
    for (let i = 0; i < 30; i++) expect((await v.get(path)).status).toBe(200)
    const refused = await v.get(path)
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused.text()).toContain('Too many requests')
    expect((await visitor(t, randomIp()).get(path)).status).toBe(200)
  })
})
