import { describe, expect, it } from 'vitest'
import { sandboxBoards } from '../../../src/networks/sandbox/boards'
import { account, media } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

const FUTURE = new Date(Date.now() + 86_400_000).toISOString()

async function setup() {
  const t = await createTestApp()
  const pin = await account(t, 'PINBOARD_NET', 'pins')
  const otherPin = await account(t, 'PINBOARD_NET', 'other_pins')
  const image = await media(t)
  const base = { type: 'IMAGE', mediaIds: [image], caption: 'pin me' }
  return { t, pin, otherPin, base }
}

/** The boards `GET /v1/accounts/{id}/boards` lists for an account. */
async function boardsOf(t: TestApp, accountId: string): Promise<string[]> {
  const res = await t.call('GET', `/v1/accounts/${accountId}/boards`)
  expect(res.status).toBe(200)
  const body = await res.json()
  const boards = Array.isArray(body) ? body : (body.data ?? body.boards)
  return boards.map((b: { id: string }) => b.id)
}

describe('pinboardNetBoards at create (SANDBOX pinboard accounts)', () => {
  it('refuses at create a board of another pinboard account, naming pinboardNetBoards.<accountId>', async () => {
    const { t, pin, otherPin, base } = await setup()
    const [othersBoard] = await boardsOf(t, otherPin.id)
    expect(await boardsOf(t, pin.id)).not.toContain(othersBoard)
    for (const timing of [
      { action: 'schedule', scheduledAt: FUTURE },
      { action: 'now' },
      // A sandbox account's boards are local: even a draft is checked.
      { action: 'draft' },
    ]) {
      const res = await t.call('POST', '/v1/posts', {
        body: { ...base, ...timing, accountIds: [pin.id], pinboardNetBoards: { [pin.id]: othersBoard } },
      })
      expect(res.status, timing.action).toBe(422)
      const { error } = await res.json()
      expect(error).toMatchObject({
        code: 'invalid_option',
        requestId: expect.stringMatching(/^req_/),
        details: [{ path: `pinboardNetBoards.${pin.id}`, code: 'invalid_option', accountId: pin.id }],
      })
      expect(error.message).toContain(othersBoard)
    }
    // Nothing was stored.
    const list = await (await t.call('GET', '/v1/posts')).json()
    expect(Array.isArray(list) ? list : list.data).toHaveLength(0)
  })

  it("accepts the account's own board, and checks each pinboard account against its own boards", async () => {
    const { t, pin, otherPin, base } = await setup()
    const mine = await boardsOf(t, pin.id)
    const theirs = await boardsOf(t, otherPin.id)
    expect(mine).toEqual(sandboxBoards(pin.id).map((b) => b.id))
    const ok = await t.call('POST', '/v1/posts', {
      body: {
        ...base,
        action: 'schedule',
        scheduledAt: FUTURE,
        accountIds: [pin.id, otherPin.id],
        pinboardNetBoards: { [pin.id]: mine[1], [otherPin.id]: theirs[2] },
      },
    })
    expect(ok.status, JSON.stringify(await ok.clone().json())).toBe(200)
    // Swapped: both entries are refused, each named.
    const swapped = await t.call('POST', '/v1/posts', {
      body: {
        ...base,
        action: 'schedule',
        scheduledAt: FUTURE,
        accountIds: [pin.id, otherPin.id],
        pinboardNetBoards: { [pin.id]: theirs[0], [otherPin.id]: mine[0] },
      },
    })
    expect(swapped.status).toBe(422)
    const { error } = await swapped.json()
    expect(error.details.map((d: { path: string }) => d.path).sort()).toEqual(
      [`pinboardNetBoards.${pin.id}`, `pinboardNetBoards.${otherPin.id}`].sort(),
    )
  })

  it('refuses the board at an edit that schedules the post, too', async () => {
    const { t, pin, otherPin, base } = await setup()
    const draft = await (
      await t.call('POST', '/v1/posts', { body: { ...base, action: 'draft', accountIds: [pin.id] } })
    ).json()
    const [othersBoard] = await boardsOf(t, otherPin.id)
    const res = await t.call('PATCH', `/v1/posts/${draft.id}`, {
      body: { action: 'schedule', scheduledAt: FUTURE, pinboardNetBoards: { [pin.id]: othersBoard } },
    })
    expect(res.status).toBe(422)
    expect((await res.json()).error).toMatchObject({
      code: 'invalid_option',
      details: [{ path: `pinboardNetBoards.${pin.id}` }],
    })
  })

  it('refuses an entry for an account that is not one of the post pinboard accounts', async () => {
    const { t, pin, otherPin, base } = await setup()
    const microblog = await account(t, 'MICROBLOG_NET')
    const [board] = await boardsOf(t, otherPin.id)
    // otherPin is a pinboard account of the workspace, but not of this post.
    const notInPost = await t.call('POST', '/v1/posts', {
      body: {
        ...base,
        action: 'schedule',
        scheduledAt: FUTURE,
        accountIds: [pin.id],
        pinboardNetBoards: { [pin.id]: (await boardsOf(t, pin.id))[0], [otherPin.id]: board },
      },
    })
    expect(notInPost.status).toBe(422)
    expect((await notInPost.json()).error).toMatchObject({
      code: 'invalid_option',
      details: [{ path: `pinboardNetBoards.${otherPin.id}`, accountId: otherPin.id }],
    })
    // A post account of another network.
    const notPinboard = await t.call('POST', '/v1/posts', {
      body: { ...base, action: 'draft', accountIds: [microblog.id], pinboardNetBoards: { [microblog.id]: board } },
    })
    expect(notPinboard.status).toBe(422)
    expect((await notPinboard.json()).error).toMatchObject({
      code: 'invalid_option',
      details: [{ path: `pinboardNetBoards.${microblog.id}`, accountId: microblog.id }],
    })
  })
})
