/**
 * The relay network with a remote signer (NIP-46): pairing through the bunker's relay with its
 * secret, the user's key read with get_public_key, notes signed by sign_event and sent to the
 * account's write relays; a signer that refuses to sign fails the target in its words.
 */
import { eq } from 'drizzle-orm'
import type { Event } from 'nostr-tools'
import { finalizeEvent, getPublicKey, verifyEvent } from 'nostr-tools/pure'
import { afterEach, describe, expect, it } from 'vitest'
import { accounts } from '../../src/db/schema'
import { connectAccount } from '../../src/services/accounts/connection'
import { type RelayFake, startBunkerFake, startRelayFake } from '../fakes/relay'
import { runDue } from '../support/engine'
import { fixedClock } from '../support/fixtures'
import { createTestApp } from '../support/test-app'

const open: RelayFake[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()))
})

async function setup() {
  const bunker = await startBunkerFake()
  const outbox = await startRelayFake()
  open.push(bunker.relay, outbox)
  // The user's relay list lives on the signer's relay: only the outbox is a write relay.
  bunker.relay.events.push(
    finalizeEvent(
      {
        kind: 10002,
        created_at: 1_700_000_000,
        content: '',
        tags: [
          ['r', outbox.url, 'write'],
          ['r', 'wss://read.example', 'read'],
        ],
      },
      bunker.userKey,
    ),
  )
  const t = await createTestApp({
    clock: fixedClock('2026-11-21T10:00:00Z'),
    parts: (p) => ({ ...p, settings: { ...p.settings, networkDeadlineCapMs: 3000 } }),
  })
  const connect = (bunkerUrl: string) =>
    connectAccount(t.deps, {
      workspaceId: t.workspaceId,
      platform: 'RELAY_NET',
      connection: 'REMOTE_SIGNER',
      credentials: { bunkerUrl },
    })
  return { t, bunker, outbox, connect }
}

describe('RELAY_NET with a remote signer (NIP-46)', () => {
  it('pairs with the bunker secret, stores the write relays of the NIP-65 list, and publishes a thread signed remotely', async () => {
    const { t, bunker, outbox, connect } = await setup()
    await expect(connect(bunker.url.replace(bunker.secret, 'wrong'))).rejects.toThrow(/wrong secret/)
    const acct = await connect(bunker.url)
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, acct.id))
    expect(row!.externalId).toBe(bunker.userPubkey)
    const credentials = await t.deps.cipher.decrypt(row!.credentials, row!.id)
    expect(credentials).toMatchObject({ writeRelays: [outbox.url], bunkerPubkey: bunker.bunkerPubkey })
    expect(bunker.clients.size).toBe(1)

    const res = await t.call('POST', '/v1/posts', {
      body: {
        type: 'IMAGE',
        mediaIds: [],
        accountIds: [acct.id],
        action: 'now',
        caption: 'signed far away',
        threadParts: ['and again'],
      },
    })
    const post = await res.json()
    await runDue(t, t.publishQueue)
    expect((await (await t.call('GET', `/v1/posts/${post.id}`)).json()).status).toBe('PUBLISHED')
    const [head, part] = outbox.events.filter((e) => e.kind === 1) as [Event, Event]
    expect(verifyEvent(head)).toBe(true)
    expect(head).toMatchObject({ pubkey: bunker.userPubkey, content: 'signed far away' })
    expect(part.tags[0]).toEqual(['e', head.id, outbox.url, 'root', bunker.userPubkey])
    expect(bunker.signed).toBe(2)
    // The user's key never reached us: only the signer holds it.
    expect(JSON.stringify(credentials)).not.toContain(Buffer.from(bunker.userKey).toString('hex'))
    expect(getPublicKey(bunker.userKey)).toBe(bunker.userPubkey)
  })

  it('a signer refusing to sign fails the target in its words, and nothing reaches the relays', async () => {
    const { t, bunker, outbox, connect } = await setup()
    const acct = await connect(bunker.url)
    bunker.refuseSigning('user denied the request')
    const res = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', mediaIds: [], accountIds: [acct.id], action: 'now', caption: 'denied' },
    })
    const post = await res.json()
    await runDue(t, t.publishQueue)
    const target = (await (await t.call('GET', `/v1/posts/${post.id}`)).json()).targets[0]
    expect(target).toMatchObject({ status: 'FAILED', error: { code: 'rejected' } })
    expect(target.error.message).toContain('user denied the request')
    expect(outbox.events.filter((e) => e.kind === 1)).toHaveLength(0)
  })
})
