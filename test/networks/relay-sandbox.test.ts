/**
 * The relay network's sandbox twin: a SANDBOX account publishes a note and its thread like the
 * other networks' twins, no relay involved, and is held to the same limits at create.
 */
import { describe, expect, it } from 'vitest'
import { runDue } from '../support/engine'
import { account } from '../support/fixtures'
import { createTestApp } from '../support/test-app'

describe('RELAY_NET sandbox twin', () => {
  it('publishes a note with its thread parts, and refuses a caption over the budget', async () => {
    const t = await createTestApp()
    const acct = await account(t, 'RELAY_NET')
    const body = { type: 'IMAGE', mediaIds: [], accountIds: [acct.id], action: 'now' }
    const post = await (
      await t.call('POST', '/v1/posts', { body: { ...body, caption: 'sandbox note', threadParts: ['second'] } })
    ).json()
    await runDue(t, t.publishQueue)
    const after = await (await t.call('GET', `/v1/posts/${post.id}`)).json()
    expect(after.status).toBe('PUBLISHED')
    expect(after.targets[0]).toMatchObject({ platform: 'RELAY_NET', permalink: expect.stringMatching(/^http/) })
    const tooLong = await t.call('POST', '/v1/posts', { body: { ...body, caption: 'x'.repeat(8001) } })
    expect(tooLong.status).toBe(422)
  })
})
