import { describe, expect, it } from 'vitest'
import {
  APPROVAL_TRANSITIONS,
  approvalRequiredFor,
  assertApproved,
  assertCreatableUnderApproval,
  assertTransition,
  decideApproval,
  missingApprovalStep,
  openApproval,
  postChanged,
  statusAfterApproval,
  transitionRefusal,
} from '../../src/domain/approval'
import { AppError } from '../../src/domain/errors'

const alice = { kind: 'user' as const, id: 'usr_a', name: 'Alice' }

describe('approval transitions', () => {
  it('submit from a draft or a post with changes requested; approve and request changes only in review', () => {
    expect(APPROVAL_TRANSITIONS.submit.from).toEqual(['DRAFT', 'CHANGES_REQUESTED'])
    expect(transitionRefusal('submit', 'DRAFT')).toBeNull()
    expect(transitionRefusal('approve', 'IN_REVIEW')).toBeNull()
    expect(transitionRefusal('request_changes', 'IN_REVIEW')).toBeNull()
  })

  it('refuses in words, naming the status', () => {
    expect(transitionRefusal('approve', 'PUBLISHED')).toBe(
      'This post is PUBLISHED; only a post in review can be approved.',
    )
    expect(transitionRefusal('submit', 'IN_REVIEW')).toBe('This post is already in review; wait for the decision.')
    expect(transitionRefusal('request_changes', 'DRAFT')).toMatch(/^This post is DRAFT; only a post in review/)
    const err = (() => {
      try {
        assertTransition('approve', 'APPROVED')
      } catch (e) {
        return e as AppError
      }
    })()
    expect(err?.code).toBe('invalid_transition')
    expect(err?.details?.[0]).toMatchObject({ from: 'APPROVED', to: 'APPROVED' })
  })

  it('an approved intent goes where scheduling would put it', () => {
    expect(statusAfterApproval(null)).toBe('APPROVED')
    expect(statusAfterApproval({ action: 'schedule', scheduledAt: '2030-01-01T00:00:00Z' })).toBe('SCHEDULED')
    expect(statusAfterApproval({ action: 'queue', scheduledAt: null })).toBe('SCHEDULED')
    expect(statusAfterApproval({ action: 'now', scheduledAt: null })).toBe('PUBLISHING')
  })
})

describe('when approval is required', () => {
  it('by the workspace or by any group of the post', () => {
    expect(approvalRequiredFor({ approvalRequired: false }, [])).toBe(false)
    expect(approvalRequiredFor({ approvalRequired: true }, [])).toBe(true)
    expect(approvalRequiredFor({ approvalRequired: false }, [{ approvalRequired: false }, { approvalRequired: true }])).toBe(
      true,
    )
  })

  it('names the missing step', () => {
    expect(missingApprovalStep('DRAFT', null)).toBe('Submit it for review first.')
    expect(missingApprovalStep('IN_REVIEW', null)).toBe('It is in review: wait for approval.')
    expect(missingApprovalStep('CHANGES_REQUESTED', null)).toBe('Changes were requested: edit it and submit it again.')
    expect(missingApprovalStep('APPROVED', null)).toBeNull()
    expect(missingApprovalStep('SCHEDULED', { state: 'APPROVED' })).toBeNull()
    expect(missingApprovalStep('SCHEDULED', null)).toBe('Submit it for review first.')
    // An approved post edited back to draft keeps its last round readable, but needs a new one.
    expect(missingApprovalStep('DRAFT', { state: 'APPROVED' })).toBe('Submit it for review first.')
  })

  it('refuses with 409 approval_required only where required', () => {
    expect(() => assertApproved({ required: false, status: 'DRAFT', approval: null })).not.toThrow()
    expect(() => assertApproved({ required: true, status: 'DRAFT', approval: null })).toThrow(
      'This post needs approval before it can be scheduled, queued or published. Submit it for review first.',
    )
    expect(() => assertCreatableUnderApproval(true, 'draft')).not.toThrow()
    expect(() => assertCreatableUnderApproval(true, 'now')).toThrow(/Create it as a draft/)
  })
})

describe('approval rounds', () => {
  it('opens and decides a round', () => {
    const now = new Date('2030-01-01T10:00:00Z')
    const round = openApproval({ by: alice, now, intent: null, note: 'For Monday', version: 3 })
    expect(round).toMatchObject({ state: 'IN_REVIEW', submittedAt: now.toISOString(), version: 3, decidedBy: null })
    const decided = decideApproval(round, { state: 'CHANGES_REQUESTED', by: alice, now, comment: 'Shorter' })
    expect(decided).toMatchObject({ state: 'CHANGES_REQUESTED', comment: 'Shorter', note: 'For Monday' })
  })

  it('post_changed names both versions and what happened', () => {
    const err = postChanged(2, 4, ['Alice edited the post'])
    expect(err.code).toBe('post_changed')
    expect(err.message).toContain('version 2, now 4')
    expect(err.message).toContain('Alice edited the post')
  })
})
