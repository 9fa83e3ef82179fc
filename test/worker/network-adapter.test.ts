/// <reference types="@cloudflare/workers-types" />
import { describe, expect, inject, it } from 'vitest'
import { DEFAULT_NETWORK_ORIGINS } from '../../src/config'
import type { PublishInput, PublishProgress, TargetContent } from '../../src/networks/adapter'
import { createOpenProtocolAdapter } from '../../src/networks/adapters/open-protocol'
import { requireSession } from '../../src/networks/adapters/open-protocol-xrpc'

/**
 * Inside workerd: a real network adapter runs on the Worker's own APIs (fetch, WebCrypto for its
 * record keys, TextEncoder for byte-offset facets, AbortSignal timeouts) against the loopback fake
 * of the open-protocol network that global setup started on Node.
 */
const fake = inject('openProtocolFake')
const adapter = createOpenProtocolAdapter({
  clients: {},
  origins: { ...DEFAULT_NETWORK_ORIGINS, OPENPROTOCOL_NET_VIDEO_URL: fake.videoUrl },
})

const content = (text: string, threadParts: string[]): TargetContent => ({
  platform: 'OPENPROTOCOL_NET',
  type: 'IMAGE',
  text,
  media: [],
  threadParts,
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
})

describe('a real network adapter in workerd', () => {
  it('connects, publishes a thread with facets, and a retried publish with lost progress makes no second post', async () => {
    const verified = await adapter.verifyCredentials!({
      connection: 'APP_PASSWORD',
      credentials: { serviceUrl: fake.url, identifier: fake.identifier, appPassword: fake.appPassword },
      fetch,
      baseUrl: fake.url,
      now: new Date(),
    })
    expect(verified).toMatchObject({ username: fake.identifier, externalId: expect.stringMatching(/^did:/) })

    const saved: PublishProgress[] = []
    const input = (progress: PublishProgress): PublishInput => ({
      idempotencyKey: `tgt_workerd_${crypto.randomUUID()}`,
      accountId: 'acc_workerd',
      connection: 'APP_PASSWORD',
      credentials: verified.credentials,
      content: content('Hé 👋 see https://example.com/a #launch', ['second part']),
      progress,
      saveProgress: async (p) => {
        saved.push(structuredClone(p))
      },
      attempt: 1,
      fetch,
      baseUrl: fake.url,
      now: new Date(),
    })
    const first = input({})
    const result = await adapter.publish(first)
    expect(result).toMatchObject({ status: 'published', platformPostId: expect.stringMatching(/^at:\/\/did:/) })
    expect(saved.at(-1)?.partIds).toHaveLength(1)

    // The same target again, as if every saved step had been lost: the record keys are the same.
    const again = await adapter.publish({ ...first, progress: {} })
    expect(again).toMatchObject({
      status: 'published',
      platformPostId: (result as { platformPostId: string }).platformPostId,
    })

    // Deleting from the network (DELETE /v1/posts/{id}?fromNetworks=true): the part, then the head.
    const head = (result as { platformPostId: string }).platformPostId
    const part = saved.at(-1)!.partIds![0]!
    const deleteInput = {
      connection: 'APP_PASSWORD',
      credentials: verified.credentials,
      fetch,
      baseUrl: fake.url,
      now: new Date(),
    }
    const session = requireSession(verified.credentials)
    const read = async (uri: string) => {
      const [, , repo, collection, rkey] = uri.split('/')
      const url = `${fake.url}/xrpc/com.atproto.repo.getRecord?repo=${repo}&collection=${collection}&rkey=${rkey}`
      const res = await fetch(url, { headers: { authorization: `Bearer ${session.accessJwt}` } })
      return { status: res.status, error: ((await res.json()) as { error?: string }).error }
    }
    expect(await read(part)).toEqual({ status: 200, error: undefined })
    for (const platformPostId of [part, head]) await adapter.deletePost!({ ...deleteInput, platformPostId })
    expect(await read(part)).toEqual({ status: 400, error: 'RecordNotFound' })
    expect(await read(head)).toEqual({ status: 400, error: 'RecordNotFound' })
  })
})
