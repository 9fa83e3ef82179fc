import { describe, expect, it } from 'vitest'
import { hashPassword, needsRehash, PASSWORD_ITERATIONS, verifyPassword } from '../../src/lib/password'

describe('password hashing (PBKDF2-SHA-256)', () => {
  it("records the scheme and OWASP's 600,000 iterations, salted, and verifies only the right password", async () => {
    const stored = await hashPassword('correct horse battery')
    expect(PASSWORD_ITERATIONS).toBe(600_000)
    expect(stored).toMatch(/^pbkdf2-sha256\$600000\$100000\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/)
    expect(await verifyPassword('correct horse battery', stored)).toBe(true)
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false)
    expect(await hashPassword('correct horse battery')).not.toBe(stored)
    expect(needsRehash(stored)).toBe(false)
  })

  it('is plain PBKDF2 in one chunk, so a standard implementation gives the same bytes', async () => {
    const { pbkdf2Sync } = await import('node:crypto')
    const stored = await hashPassword('pw-123456', 1000)
    const [, , , salt, hash] = stored.split('$')
    expect(pbkdf2Sync('pw-123456', Buffer.from(salt!, 'base64'), 1000, 32, 'sha256').toString('base64')).toBe(hash)
    expect(needsRehash(stored)).toBe(true)
  })

  it('refuses malformed or absurd stored hashes instead of computing them', async () => {
    expect(await verifyPassword('x', 'md5$abc')).toBe(false)
    expect(await verifyPassword('x', 'pbkdf2-sha256$999999999$100000$AAAA$AAAA')).toBe(false)
  })
})
