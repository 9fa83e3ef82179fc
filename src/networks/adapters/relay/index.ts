/**
 * The relay network (Nostr): notes signed by the account's key or its remote signer and sent over
 * WebSockets to the account's write relays (networks/sockets.ts, under the outbound guard). See
 * docs/networks/relay.md for the NIPs followed and what could not be confirmed.
 */
import type { DeleteInput, NetworkAdapter, PendingInput, PublishInput, PublishResult } from '../../adapter'
import { asFailedResult, deadlineOf, NetworkFailure } from '../../http'
import type { RelaySockets } from '../../sockets'
import type { AdapterOptions } from '../options'
import { verifyRelayAccount } from './connect'
import { deletion } from './events'
import { broadcast, publishFlow, reconcileFlow, type Ctx, type RelayProgress } from './publish'
import { relaysOf, signerFor } from './signer'
import { query } from './wire'
import { relayInbox } from './inbox'

/** How long one relay (or the remote signer) has to answer one message. */
const RELAY_ANSWER_MS = 10_000

function socketsOf(options: AdapterOptions): RelaySockets {
  if (!options.sockets) throw new NetworkFailure('transient', 'RELAY_NET: this runtime has no WebSocket client.')
  return options.sockets
}

export function createRelayAdapter(options: AdapterOptions): NetworkAdapter {
  async function run(input: PublishInput | PendingInput): Promise<PublishResult> {
    let close = () => {}
    try {
      const sockets = socketsOf(options)
      const deadlineMs = deadlineOf(input.fetch, RELAY_ANSWER_MS)
      const relays = relaysOf(input.credentials, 'writeRelays')
      const progress = input.progress as RelayProgress
      const unconfirmed = 'unconfirmed' in input && input.unconfirmed
      // Nothing was signed yet: nothing can have gone out, and no signer needs waking.
      if (unconfirmed && !progress.signed?.length) return { status: 'absent' }
      const signer = await signerFor(input.connection, input.credentials, sockets, deadlineMs)
      close = () => signer.close()
      const ctx: Ctx = { input, progress, signer, sockets, relays, deadlineMs }
      return unconfirmed ? await reconcileFlow(ctx) : await publishFlow(ctx)
    } catch (err) {
      return asFailedResult(err)
    } finally {
      close()
    }
  }

  /** NIP-09: a kind 5 event naming the note and the account's replies in its thread. */
  async function deletePost(input: DeleteInput): Promise<void> {
    const sockets = socketsOf(options)
    const deadlineMs = deadlineOf(input.fetch, RELAY_ANSWER_MS)
    const relays = relaysOf(input.credentials, 'writeRelays')
    const signer = await signerFor(input.connection, input.credentials, sockets, deadlineMs)
    try {
      const filter = { kinds: [1], authors: [signer.pubkey], '#e': [input.platformPostId] }
      const answers = await Promise.all(relays.map((r) => query(sockets, r, filter, deadlineMs)))
      const parts = answers
        .flatMap((a) => a.events)
        .filter((e) => e.pubkey === signer.pubkey)
        .map((e) => e.id)
      const ids = [...new Set([input.platformPostId, ...parts])]
      const event = await signer.sign(deletion(ids, input.now))
      const ctx = { relays, sockets, deadlineMs } as Ctx
      await broadcast(ctx, event)
    } finally {
      signer.close()
    }
  }

  return {
    ...relayInbox(() => socketsOf(options)),
    publish: run,
    checkStatus: run,
    deletePost,
    verifyCredentials: (input) =>
      verifyRelayAccount(input, socketsOf(options), deadlineOf(input.fetch, RELAY_ANSWER_MS)),
  }
}
