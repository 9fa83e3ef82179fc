import { describe, expect, it } from 'vitest'
import { newId, newIds } from '../../src/lib/ids'

describe('ids', () => {
  it('are the prefix and 22 base62 characters, drawn one at a time or many at once, never repeated', () => {
    const many = newIds('target', 500)
    expect(many).toHaveLength(500)
    for (const id of [...many, newId('target')]) expect(id).toMatch(/^tgt_[0-9a-zA-Z]{22}$/)
    expect(new Set([...many, ...newIds('target', 500)]).size).toBe(1000)
    expect(newIds('post', 0)).toEqual([])
  })
})
