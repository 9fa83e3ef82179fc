/**
 * Connecting into an account group (`groupId` of `POST /v1/accounts/connect`): the link remembers
 * the group (the one named, or a limited caller's only one), and the account the owner connects
 * through it joins that group with it; a reconnect leaves the account's groups as they are.
 */
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { activityLog, connectLinks, webhookEvents } from '../../../src/db/schema'
import { group, limitedToken } from '../../support/groups'
import { linkHref, readForm, serveTestApp, type ServedApp, visit } from '../../support/browser'

const APP = 'http://app.test'

/** A link asked for as `token` (the owner's when absent); the answer as it came. */
const askLink = (t: ServedApp, body: Record<string, unknown>, token?: string) =>
  t.call('POST', '/v1/accounts/connect', {
    body: { platform: 'PHOTO_NET', connection: 'SANDBOX', redirectUrl: `${APP}/done`, ...body },
    ...(token ? { token } : {}),
  })

/** The owner goes through the sandbox's consent page as `username`; the account id they come back with. */
async function connect(t: ServedApp, url: string, username: string): Promise<string> {
  const start = await visit(url)
  const consent = await visit(new URL(linkHref(start.body, 'Continue to'), t.baseUrl).href)
  const form = readForm(consent.body)
  const end = await visit(new URL(form.action, t.baseUrl).href, {
    method: 'POST',
    form: { ...form.fields, username, decision: 'allow' },
    stopAt: APP,
  })
  const accountId = new URL(end.url).searchParams.get('accountId')
  if (!accountId) throw new Error(`not connected: ${end.url}`)
  return accountId
}

/** A link asked for as `token`, then connected as `username`; the new account's id. */
async function connectAs(t: ServedApp, body: Record<string, unknown>, username: string, token?: string) {
  const res = await askLink(t, body, token)
  expect(res.status).toBe(200)
  return connect(t, (await res.json()).url, username)
}

const groupIdsOf = async (t: ServedApp, accountId: string) =>
  (await (await t.call('GET', `/v1/accounts/${accountId}`)).json()).groupIds

const linkCount = async (t: ServedApp) =>
  (await t.deps.db.select().from(connectLinks).where(eq(connectLinks.workspaceId, t.workspaceId))).length

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status)
  const { error } = (await res.json()) as { error: { code: string; message: string; details?: unknown[] } }
  expect(error.code).toBe(code)
  return error
}

describe('hosted connect into an account group', () => {
  it('puts the account a member limited to one group connects into that group, where the member sees it', async () => {
    const t = await serveTestApp({ connectRedirectOrigins: [APP] })
    const ga = await group(t, 'Client A')
    await group(t, 'Client B')
    const token = await limitedToken(t, [ga.id])
    const id = await connectAs(t, {}, 'client_a', token)

    expect(await groupIdsOf(t, id)).toEqual([ga.id])
    const seen = await (await t.call('GET', '/v1/accounts', { token })).json()
    expect(seen.map((a: { id: string }) => a.id)).toEqual([id])
    // The webhook event and the activity entry written with the account say so too.
    const [event] = await t.deps.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.workspaceId, t.workspaceId), eq(webhookEvents.type, 'account.connected')))
    expect(event!.payload.data).toMatchObject({ id, groupIds: [ga.id] })
    const entries = await t.deps.db.select().from(activityLog).where(eq(activityLog.subjectId, id))
    expect(entries.map((e) => e.action)).toEqual(['account.connected'])
  })

  it('asks a member limited to several groups which one (422, naming them), and connects into the one named', async () => {
    const t = await serveTestApp({ connectRedirectOrigins: [APP] })
    const ga = await group(t, 'Client A')
    const gb = await group(t, 'Client B')
    const token = await limitedToken(t, [ga.id, gb.id])
    const error = await expectError(await askLink(t, {}, token), 422, 'invalid_option')
    expect(error.message).toContain('groupId')
    expect(error.message).toContain(`Client A (${ga.id})`)
    expect(error.message).toContain(`Client B (${gb.id})`)
    expect(error.details).toEqual([
      expect.objectContaining({ path: 'groupId', groupIds: expect.arrayContaining([ga.id, gb.id]) }),
    ])
    expect(await linkCount(t)).toBe(0)

    const id = await connectAs(t, { groupId: gb.id }, 'client_b', token)
    expect(await groupIdsOf(t, id)).toEqual([gb.id])
  })

  it("answers another workspace's group, and a group outside the caller's, as unknown (404)", async () => {
    const t = await serveTestApp({ connectRedirectOrigins: [APP] })
    const other = await serveTestApp()
    const foreign = await group(other, 'Their client')
    const ga = await group(t, 'Client A')
    const gb = await group(t, 'Client B')
    const token = await limitedToken(t, [ga.id])
    await expectError(await askLink(t, { groupId: foreign.id }), 404, 'not_found')
    await expectError(await askLink(t, { groupId: 'grp_none' }), 404, 'not_found')
    await expectError(await askLink(t, { groupId: gb.id }, token), 404, 'not_found')
    await expectError(await askLink(t, { groupId: foreign.id }, token), 404, 'not_found')
    expect(await linkCount(t)).toBe(0)
  })

  it("connects an unlimited caller's account into the group it names, or into none", async () => {
    const t = await serveTestApp({ connectRedirectOrigins: [APP] })
    const ga = await group(t, 'Client A')
    expect(await groupIdsOf(t, await connectAs(t, { groupId: ga.id }, 'filed'))).toEqual([ga.id])
    expect(await groupIdsOf(t, await connectAs(t, {}, 'unfiled'))).toEqual([])
    const unlimited = await limitedToken(t, null)
    expect(await groupIdsOf(t, await connectAs(t, {}, 'by_member', unlimited))).toEqual([])
  })

  it('leaves the groups of a reconnected account alone, whichever group the new link names', async () => {
    const t = await serveTestApp({ connectRedirectOrigins: [APP] })
    const ga = await group(t, 'Client A')
    const gb = await group(t, 'Client B')
    const id = await connectAs(t, { groupId: ga.id }, 'studio')

    const again = await (
      await t.call('POST', `/v1/accounts/${id}/reconnect`, { body: { redirectUrl: `${APP}/done` } })
    ).json()
    expect(await connect(t, again.url, 'studio')).toBe(id)
    expect(await groupIdsOf(t, id)).toEqual([ga.id])
    // A connect link of another group for the same identity renews that account: it stays where it was.
    expect(await connectAs(t, { groupId: gb.id }, 'studio')).toBe(id)
    expect(await groupIdsOf(t, id)).toEqual([ga.id])
  })

  it('connects into no group when the group was deleted before the owner came', async () => {
    const t = await serveTestApp({ connectRedirectOrigins: [APP] })
    const ga = await group(t, 'Client A')
    const res = await askLink(t, { groupId: ga.id })
    expect((await t.call('DELETE', `/v1/groups/${ga.id}`)).status).toBe(200)
    const id = await connect(t, (await res.json()).url, 'orphan')
    expect(await groupIdsOf(t, id)).toEqual([])
  })
})
