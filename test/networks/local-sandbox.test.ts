/**
 * The local business network's sandbox twin: a SANDBOX account publishes what the network takes
 * (an update with a photo, an event), refuses in the network's words what it would refuse (an
 * event without its schedule, an alert with a photo), and deletes, as the network allows.
 */
import { describe, expect, it } from 'vitest'
import { runDue } from '../support/engine'
import { account } from '../support/fixtures'
import { createTestApp } from '../support/test-app'
import { getPost, localPost, photo } from './local-support'

describe('LOCAL_NET sandbox twin', () => {
  it('publishes what the network takes and refuses, in the same words, options that do not fit together', async () => {
    const t = await createTestApp()
    const sandbox = await account(t, 'LOCAL_NET', 'cornerbakery')
    const image = await photo(t)
    const ok = await localPost(
      t,
      sandbox.id,
      { caption: 'Fresh bread', mediaIds: [image.id] },
      { callToAction: 'CALL' },
    )
    const event = await localPost(
      t,
      sandbox.id,
      { caption: 'Market' },
      {
        topicType: 'EVENT',
        eventTitle: 'Market',
        eventStart: '2026-12-24T10:00:00+01:00',
        eventEnd: '2026-12-24T18:00:00+01:00',
      },
    )
    const noSchedule = await localPost(t, sandbox.id, { caption: 'Party' }, { topicType: 'EVENT', eventTitle: 'Party' })
    const alert = await localPost(t, sandbox.id, { caption: 'Closed', mediaIds: [image.id] }, { topicType: 'ALERT' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, ok.id)).targets[0].status).toBe('PUBLISHED')
    expect((await getPost(t, event.id)).targets[0].status).toBe('PUBLISHED')
    expect((await getPost(t, noSchedule.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'rejected',
        message: expect.stringContaining(
          'A EVENT post needs eventTitle, eventStart and eventEnd (missing: eventStart, eventEnd).',
        ),
      },
    })
    expect((await getPost(t, alert.id)).targets[0].error.message).toContain(
      'An ALERT post carries text and a button only',
    )

    const removed = await t.call('DELETE', `/v1/posts/${ok.id}?fromNetworks=true`)
    expect(removed.status, await removed.clone().text()).toBeLessThan(300)
    expect((await removed.json()).targets).toEqual([
      expect.objectContaining({ platform: 'LOCAL_NET', outcome: 'deleted' }),
    ])
  })
})
