/// <reference types="@cloudflare/workers-types" />
import { describe, expect, inject, it } from 'vitest'
import { DEFAULT_NETWORK_ORIGINS } from '../../src/config'
import type { PublishInput, PublishProgress } from '../../src/networks/adapter'
import { createRelayAdapter } from '../../src/networks/adapters/relay'
import { createRelaySockets, type SocketLike } from '../../src/networks/sockets'

/**
 * Inside workerd: the relay network's adapter on the Worker's own WebSocket client (the opener the
 * Worker runtime gives), pairing with a NIP-46 remote signer and publishing a thread to a loopback
 * relay that global setup started on Node; a retry with the saved progress sends the same events.
 */
const fake = inject('relayFake')
const adapter = createRelayAdapter({
  clients: {},
  origins: DEFAULT_NETWORK_ORIGINS,
  sockets: createRelaySockets((url) => new WebSocket(url) as unknown as SocketLike, { allowPrivate: true }),
})

describe('the relay network adapter in workerd', () => {
  it('pairs with a remote signer over WebSocket and publishes a thread exactly once', async () => {
    const verified = await adapter.verifyCredentials!({
      connection: 'REMOTE_SIGNER',
      credentials: { bunkerUrl: fake.bunkerUrl, relays: fake.relayUrl },
      fetch,
      baseUrl: '',
      now: new Date(),
    })
    expect(verified.externalId).toBe(fake.userPubkey)
    const saved: PublishProgress[] = []
    const input = (progress: PublishProgress): PublishInput => ({
      idempotencyKey: `tgt_workerd_${crypto.randomUUID()}`,
      accountId: 'acc_workerd',
      connection: 'REMOTE_SIGNER',
      credentials: verified.credentials,
      content: {
        platform: 'RELAY_NET',
        type: 'IMAGE',
        text: 'Hé 👋 from workerd',
        media: [],
        threadParts: ['second part'],
        firstComment: null,
        replyToMicropostId: null,
        quoteMicropostId: null,
        videoNetOptions: null,
        audio: null,
        pinboardBoardId: null,
        pinTitle: null,
        linkUrl: null,
        title: null,
        destinationId: null,
        targetOptions: {},
      },
      progress,
      saveProgress: async (p) => {
        saved.push(structuredClone(p))
      },
      attempt: 1,
      fetch,
      baseUrl: '',
      now: new Date(),
    })
    const first = await adapter.publish(input({}))
    expect(first).toMatchObject({ status: 'published', permalink: expect.stringMatching(/^nostr:nevent1/) })
    // A retry that lost the relays' answers but kept the signed events sends the same ones again.
    const signedOnly = { signed: saved.at(-1)!.signed }
    const again = await adapter.publish(input(signedOnly))
    expect(again).toMatchObject({ status: 'published' })
    if (first.status === 'published' && again.status === 'published')
      expect(again.platformPostId).toBe(first.platformPostId)
  })
})
