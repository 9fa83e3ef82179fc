import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { posts } from '../../../src/db/schema'
import { sandboxBoards } from '../../../src/networks/sandbox/boards'
import { runDue } from '../../support/engine'
import { account, connectedAccount, media } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

const FUTURE = new Date(Date.now() + 86_400_000).toISOString()

async function destinationsOf(t: TestApp, accountId: string): Promise<string[]> {
  const res = await t.call('GET', `/v1/accounts/${accountId}/destinations`)
  expect(res.status).toBe(200)
  return (await res.json()).destinations.map((d: { id: string }) => d.id)
}

describe('GET /v1/accounts/{id}/destinations', () => {
  it("lists a SANDBOX pinboard account's boards as its destinations", async () => {
    const t = await createTestApp()
    const pin = await account(t, 'PINBOARD_NET')
    const res = await t.call('GET', `/v1/accounts/${pin.id}/destinations`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      destinations: sandboxBoards(pin.id).map((b) => ({ id: b.id, name: b.name, description: null })),
    })
  })

  it('answers 404 for an account of another workspace, or none', async () => {
    const t = await createTestApp()
    const other = await createTestApp()
    const theirs = await account(other, 'PINBOARD_NET')
    for (const id of [theirs.id, 'acc_doesNotExist']) {
      const res = await t.call('GET', `/v1/accounts/${id}/destinations`)
      expect(res.status).toBe(404)
      expect(await res.json()).toMatchObject({ error: { code: 'not_found' } })
    }
  })

  it('answers 422 invalid_option for an account of a network without destinations', async () => {
    const t = await createTestApp()
    const microblog = await account(t, 'MICROBLOG_NET')
    const res = await t.call('GET', `/v1/accounts/${microblog.id}/destinations`)
    expect(res.status).toBe(422)
    const { error } = await res.json()
    expect(error).toMatchObject({ code: 'invalid_option', details: [{ path: 'id', platform: 'MICROBLOG_NET' }] })
    expect(error.message).toContain('publishes into no destination')
    expect(error.message).toContain('PINBOARD_NET')
  })

  it("answers 422 when the network cannot list them, naming them with the registry's noun", async () => {
    const t = await createTestApp()
    const direct = await connectedAccount(t, 'PINBOARD_NET', 'DIRECT_LOGIN')
    const res = await t.call('GET', `/v1/accounts/${direct.id}/destinations`)
    expect(res.status).toBe(422)
    // The network's own adapter is there, but this account holds no token to call it with.
    expect((await res.json()).error.message).toContain('The boards could not be listed')
  })
})

describe('destinations in a post body', () => {
  async function setup() {
    const t = await createTestApp()
    const pin = await account(t, 'PINBOARD_NET', 'pins')
    const otherPin = await account(t, 'PINBOARD_NET', 'other_pins')
    const microblog = await account(t, 'MICROBLOG_NET')
    const base = { type: 'IMAGE', mediaIds: [await media(t)], caption: 'pin me' }
    return { t, pin, otherPin, microblog, base }
  }

  it('a pinboard board given as destinations publishes there, and is stored and answered as sent', async () => {
    const { t, pin, base } = await setup()
    const [board] = await destinationsOf(t, pin.id)
    const res = await t.call('POST', '/v1/posts', {
      body: { ...base, action: 'now', accountIds: [pin.id], destinations: { [pin.id]: board } },
    })
    expect(res.status).toBe(200)
    const created = await res.json()
    expect(created.destinations).toEqual({ [pin.id]: board })
    await runDue(t, t.publishQueue)
    const after = await (await t.call('GET', `/v1/posts/${created.id}`)).json()
    expect(after.targets[0]).toMatchObject({ status: 'PUBLISHED', error: null })
    const page = await t.call('GET', new URL(after.targets[0].permalink).pathname, { token: null })
    expect(await page.text()).toContain(sandboxBoards(pin.id)[0]!.name)
  })

  it("refuses a destination that is not one of the account's, drafts too for SANDBOX accounts", async () => {
    const { t, pin, otherPin, base } = await setup()
    const [theirs] = await destinationsOf(t, otherPin.id)
    for (const timing of [{ action: 'schedule', scheduledAt: FUTURE }, { action: 'draft' }]) {
      const body = { ...base, ...timing, accountIds: [pin.id], destinations: { [pin.id]: theirs } }
      const res = await t.call('POST', '/v1/posts', { body })
      expect(res.status, timing.action).toBe(422)
      expect((await res.json()).error).toMatchObject({
        code: 'invalid_option',
        details: [{ path: `destinations.${pin.id}`, accountId: pin.id }],
      })
      const report = await (await t.call('POST', '/v1/posts/validate', { body })).json()
      expect(report.valid, timing.action).toBe(false)
      const issues = [...report.errors, ...report.targets.flatMap((x: { errors: unknown[] }) => x.errors)]
      expect(issues).toContainEqual(expect.objectContaining({ path: `destinations.${pin.id}` }))
    }
  })

  it('refuses destinations for a network without them, and two different boards for one pin', async () => {
    const { t, pin, microblog, base } = await setup()
    const [a, b] = await destinationsOf(t, pin.id)
    const micro = await t.call('POST', '/v1/posts', {
      body: { ...base, action: 'draft', accountIds: [microblog.id], destinations: { [microblog.id]: 'x' } },
    })
    expect(micro.status).toBe(422)
    expect((await micro.json()).error.details).toEqual([
      expect.objectContaining({ code: 'invalid_option', path: `destinations.${microblog.id}` }),
    ])
    const both = await t.call('POST', '/v1/posts', {
      body: {
        ...base,
        action: 'draft',
        accountIds: [pin.id],
        destinations: { [pin.id]: a },
        pinboardNetBoards: { [pin.id]: b },
      },
    })
    expect(both.status).toBe(422)
    expect((await both.json()).error.details).toEqual([
      expect.objectContaining({ path: `destinations.${pin.id}`, message: expect.stringContaining('different boards') }),
    ])
  })

  it('a draft saves without a board; schedule refuses it; the publisher fails one that reaches it without, in words', async () => {
    const { t, pin, base } = await setup()
    const draft = await t.call('POST', '/v1/posts', { body: { ...base, action: 'draft', accountIds: [pin.id] } })
    expect(draft.status).toBe(200)
    const { id } = await draft.json()
    const refused = await t.call('POST', `/v1/posts/${id}/schedule`, { body: { scheduledAt: FUTURE } })
    expect(refused.status).toBe(422)
    expect((await refused.json()).error.details).toEqual([
      expect.objectContaining({ path: `pinboardNetBoards.${pin.id}` }),
    ])
    // One that reaches the publisher anyway (its board removed behind the API's back).
    const [board] = await destinationsOf(t, pin.id)
    const now = await t.call('PATCH', `/v1/posts/${id}`, { body: { action: 'now', destinations: { [pin.id]: board } } })
    expect(now.status).toBe(200)
    await t.deps.db.update(posts).set({ destinations: null }).where(eq(posts.id, id))
    await runDue(t, t.publishQueue)
    const after = await (await t.call('GET', `/v1/posts/${id}`)).json()
    expect(after.targets[0]).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'rejected',
        message: expect.stringContaining('No board was chosen for this PINBOARD_NET account'),
      },
    })
  })
})
