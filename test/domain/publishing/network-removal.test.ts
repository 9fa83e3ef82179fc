import { describe, expect, it } from 'vitest'
import {
  isFinalRemoval,
  networkIdsOf,
  planRemoval,
  type TargetState,
} from '../../../src/domain/publishing/network-removal'

const published = (over: Partial<TargetState> = {}): TargetState => ({
  platform: 'MICROBLOG_NET',
  status: 'PUBLISHED',
  error: null,
  platformPostId: '1',
  progress: { headId: '1', partIds: ['2', '3'] },
  ...over,
})

describe('planRemoval', () => {
  it('deletes the last thread part first and the head last, album items included, each id once', () => {
    expect(
      networkIdsOf({
        platformPostId: '10',
        progress: { headId: '10', messageIds: ['10', '11', '12'], partIds: ['13'] },
      }),
    ).toEqual(['13', '12', '11', '10'])
    expect(planRemoval(published())).toEqual({
      action: 'delete',
      ids: ['3', '2', '1'],
      removed: [],
      toDelete: ['3', '2', '1'],
    })
  })

  it('skips what an earlier call removed, and is done when nothing is left', () => {
    expect(
      planRemoval(published({ progress: { headId: '1', partIds: ['2', '3'], removedFromNetwork: ['3'] } })),
    ).toMatchObject({
      action: 'delete',
      toDelete: ['2', '1'],
      removed: ['3'],
    })
    expect(planRemoval(published({ progress: { headId: '1', removedFromNetwork: ['1'] } }))).toMatchObject({
      action: 'done',
    })
  })

  it('touches nothing whose fate is unknown or still moving', () => {
    const unconfirmed = published({ status: 'FAILED', error: { code: 'unconfirmed', message: 'm', retryable: true } })
    expect(planRemoval(unconfirmed)).toMatchObject({ action: 'none', outcome: 'unconfirmed' })
    expect(planRemoval(published({ status: 'PUBLISHING' }))).toMatchObject({ action: 'none', outcome: 'in_progress' })
    const processing = published({ status: 'PENDING', progress: { headId: '1', pending: { stage: 'video' } } })
    expect(planRemoval(processing)).toMatchObject({ action: 'none', outcome: 'in_progress' })
    const sending = published({ status: 'PENDING', platformPostId: null, progress: { sending: { step: -1 } } })
    expect(planRemoval(sending)).toMatchObject({ action: 'none', outcome: 'in_progress' })
  })

  it('cancels what never reached the network, and names the networks that have no delete', () => {
    const never = published({ status: 'PENDING', platformPostId: null, progress: { sending: null } })
    expect(planRemoval(never)).toMatchObject({ action: 'none', outcome: 'not_published' })
    const failedEarly = published({
      status: 'FAILED',
      platformPostId: null,
      progress: null,
      error: { code: 'rejected', message: 'm', retryable: false },
    })
    expect(planRemoval(failedEarly)).toMatchObject({ outcome: 'not_published' })
    for (const platform of ['PHOTO_NET', 'SHORTVIDEO_NET', 'TEXTTHREAD_NET'] as const) {
      expect(planRemoval(published({ platform, progress: { headId: '1' } }))).toMatchObject({
        outcome: 'not_supported',
        ids: ['1'],
      })
    }
    // A head whose thread failed is still on the network: it is deleted.
    const halfThread = published({
      status: 'FAILED',
      platformPostId: '1',
      progress: { headId: '1' },
      error: { code: 'rejected', message: 'm', retryable: false },
    })
    expect(planRemoval(halfThread)).toMatchObject({ action: 'delete', toDelete: ['1'] })
  })

  it('drops our record only for outcomes that leave nothing to do', () => {
    expect(
      ['deleted', 'not_supported', 'not_published', 'failed', 'unconfirmed', 'in_progress'].filter((o) =>
        isFinalRemoval(o as never),
      ),
    ).toEqual(['deleted', 'not_supported', 'not_published'])
  })
})
