import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts } from '../../../src/db/schema'
import { addSandboxAccount } from '../../../src/services/accounts/accounts'
import { createTestApp } from '../../support/test-app'

describe('GET /v1/accounts', () => {
  it('lists the workspace accounts in the spec shape, never their credentials', async () => {
    const t = await createTestApp()
    const a = await addSandboxAccount(t.deps.db, t.deps.cipher, {
      workspaceId: t.workspaceId,
      platform: 'PHOTO_NET',
      username: 'studio',
      failMode: 'once',
    })
    const res = await t.call('GET', '/v1/accounts')
    expect(res.status).toBe(200)
    const list = await res.json()
    expect(list).toEqual([
      {
        id: a.id,
        platform: 'PHOTO_NET',
        username: 'studio',
        status: 'ACTIVE',
        connection: 'SANDBOX',
        statusReason: null,
        statusMessage: null,
        tokenExpiresAt: null,
        captionMaxLength: null,
        groupIds: [],
        connectedAt: expect.any(String),
        lastPublishedAt: null,
        createdAt: expect.any(String),
        sync: null,
      },
    ])
    expect(JSON.stringify(list)).not.toMatch(/credentials|failMode|once/)
  })

  it('never shows one workspace the accounts of another', async () => {
    const mine = await createTestApp()
    const theirs = await createTestApp()
    await addSandboxAccount(theirs.deps.db, theirs.deps.cipher, {
      workspaceId: theirs.workspaceId,
      platform: 'MICROBLOG_NET',
      username: 'them',
    })
    expect(await (await mine.call('GET', '/v1/accounts')).json()).toEqual([])
    expect(await (await theirs.call('GET', '/v1/accounts')).json()).toHaveLength(1)
  })

  it('keeps credentials encrypted at rest and bound to their account', async () => {
    const t = await createTestApp()
    const a = await addSandboxAccount(t.deps.db, t.deps.cipher, {
      workspaceId: t.workspaceId,
      platform: 'PHOTO_NET',
      username: 'x',
      failMode: 'transient',
    })
    const b = await addSandboxAccount(t.deps.db, t.deps.cipher, {
      workspaceId: t.workspaceId,
      platform: 'PHOTO_NET',
      username: 'y',
    })
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, a.id))
    expect(row!.credentials).toMatch(/^v1\./)
    expect(row!.credentials).not.toContain('transient')
    expect(await t.deps.cipher.decrypt(row!.credentials, a.id)).toEqual({ failMode: 'transient' })
    // The same ciphertext copied onto another account does not decrypt.
    await expect(t.deps.cipher.decrypt(row!.credentials, b.id)).rejects.toThrow()
  })

  it('enforces the plan cap on connected accounts, even under concurrent additions', async () => {
    const t = await createTestApp({ plan: 'free' })
    const attempts = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        addSandboxAccount(t.deps.db, t.deps.cipher, {
          workspaceId: t.workspaceId,
          platform: 'CHAT_NET',
          username: `u${i}`,
        }),
      ),
    )
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(3)
    const refused = attempts.filter((a) => a.status === 'rejected') as PromiseRejectedResult[]
    expect(refused).toHaveLength(2)
    for (const r of refused) expect(r.reason.code).toBe('plan_limit_reached')
    expect(await (await t.call('GET', '/v1/accounts')).json()).toHaveLength(3)
  })
})
