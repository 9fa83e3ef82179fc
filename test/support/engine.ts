import type { RecordingPublishQueue } from '../../src/infra/publish-queue/recording'
import type { NetworkAdapter, PublishInput, PublishResult } from '../../src/networks/adapter'
import type { NetworkRegistry } from '../../src/networks/registry'
import { publishTarget } from '../../src/services/publishing/publish-target'
import type { TestApp } from './test-app'

/** Runs every recorded delivery whose time has come (by the app's clock), repeatedly, until none is left. */
export async function runDue(t: TestApp, queue: RecordingPublishQueue): Promise<string[]> {
  const outcomes: string[] = []
  for (;;) {
    const due = queue.takeDue(t.deps.clock.now())
    if (due.length === 0) return outcomes
    for (const d of due) outcomes.push(await publishTarget(t.deps, { targetId: d.targetId, version: d.version }))
  }
}

export interface FakePost {
  id: string
  key: string
  text: string
  replyTo: string | null
}

/**
 * An in-memory network behind the adapter port, for engine tests: it keeps what it "published"
 * by idempotency key (as a network with idempotency would), counts calls, and fails on demand.
 */
export function fakeNetwork(
  options: {
    /** Latency of each publish call. */
    delayMs?: number
    /** Each publish call, once counted, waits for this before it answers (a test holds calls in flight). */
    hold?: Promise<void>
    withCheckStatus?: boolean
  } = {},
) {
  const posts = new Map<string, FakePost>()
  const plan: Array<(input: PublishInput, step: 'head' | number) => PublishResult | null> = []
  let calls = 0
  let sequence = 0
  const publishOne = (key: string, text: string, replyTo: string | null): FakePost => {
    const existing = posts.get(key)
    if (existing) return existing
    const post = { id: `fake_${++sequence}`, key, text, replyTo }
    posts.set(key, post)
    return post
  }
  const adapter: NetworkAdapter = {
    async publish(input) {
      calls++
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs))
      if (options.hold) await options.hold
      const failure = plan.length ? plan[0]!(input, 'head') : null
      if (failure) {
        plan.shift()
        return failure
      }
      let headId = input.progress.headId
      if (!headId) {
        headId = publishOne(input.idempotencyKey, input.content.text, null).id
        await input.saveProgress({ headId })
      }
      const partIds = [...(input.progress.partIds ?? [])]
      for (let i = partIds.length; i < input.content.threadParts.length; i++) {
        const partFailure = plan.length ? plan[0]!(input, i) : null
        if (partFailure) {
          plan.shift()
          return partFailure
        }
        partIds.push(
          publishOne(`${input.idempotencyKey}:part:${i}`, input.content.threadParts[i]!, partIds[i - 1] ?? headId).id,
        )
        await input.saveProgress({ partIds: [...partIds] })
      }
      return { status: 'published', platformPostId: headId, permalink: `https://fake.example/${headId}` }
    },
    ...(options.withCheckStatus === false
      ? {}
      : {
          async checkStatus(input) {
            const found = posts.get(input.idempotencyKey)
            return found
              ? { status: 'published', platformPostId: found.id, permalink: `https://fake.example/${found.id}` }
              : { status: 'absent' }
          },
        }),
  }
  const registry: NetworkRegistry = { adapterFor: () => adapter, baseUrlFor: () => 'http://fake.invalid', fetch }
  return {
    adapter,
    registry,
    posts,
    calls: () => calls,
    /** The next publish (or thread part) answers with `result` instead. */
    failNext(result: PublishResult, at: 'head' | number = 'head') {
      plan.push((_input, step) => (step === at ? result : null))
    },
  }
}
