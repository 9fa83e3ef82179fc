import { describe, expect, it } from 'vitest'
import { createInProcessPublishQueue, type InProcessPublishQueue } from '../../../src/infra/publish-queue/in-process'
import { addSandboxAccount } from '../../../src/services/accounts/accounts'
import { publishTarget } from '../../../src/services/publishing/publish-target'
import { requeuePendingTargets } from '../../../src/services/publishing/sweep'
import { account } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'
import { until } from '../../support/until'

/**
 * An app over the Node runtime's own queue, publishing for real through the engine and the SANDBOX
 * network. The queue runs from `start()` on: before it, the process "had a queue that is now gone"
 * (what it was handed is lost, as in a crash).
 */
async function liveApp() {
  let queue: InProcessPublishQueue | undefined
  const t = await createTestApp({
    publishing: { backoffBaseSec: 0.2, random: () => 0.5 },
    publishQueue: { enqueue: async (deliveries) => queue?.enqueue(deliveries) },
  })
  const start = () => {
    queue = createInProcessPublishQueue({
      run: (d) => publishTarget(t.deps, d),
      logger: t.deps.logger,
      clock: t.deps.clock,
    })
    return queue
  }
  return { t, start }
}

const getPost = (t: TestApp, id: string) => t.call('GET', `/v1/posts/${id}`).then((r) => r.json())

describe('publishing end to end on the SANDBOX network', () => {
  it('publishes a scheduled post at its time, with a permalink that shows the post and its thread', async () => {
    const { t, start } = await liveApp()
    const queue = start()
    try {
      const a = await account(t, 'MICROBLOG_NET')
      const scheduledAt = new Date(Date.now() + 1_500).toISOString()
      const created = await (
        await t.call('POST', '/v1/posts', {
          body: {
            type: 'IMAGE',
            accountIds: [a.id],
            mediaIds: [],
            action: 'schedule',
            scheduledAt,
            caption: 'Hello <world> & friends',
            threadParts: ['second part', 'third part'],
          },
        })
      ).json()
      expect(created.status).toBe('SCHEDULED')
      // Handed to the queue, which holds it for its time.
      expect(queue.waiting).toBe(1)
      // Polled from the start: a publish before its time would be seen before it.
      let seenAt = 0
      const started = await until(
        async () => {
          const read = await getPost(t, created.id)
          seenAt = Date.now()
          return read
        },
        (p) => p.status !== 'SCHEDULED',
      )
      // The first read that saw it leave SCHEDULED (PUBLISHING or already PUBLISHED) came after its time.
      expect(['PUBLISHING', 'PUBLISHED']).toContain(started.status)
      expect(seenAt).toBeGreaterThanOrEqual(new Date(scheduledAt).getTime())
      const post = await until(
        () => getPost(t, created.id),
        (p) => p.status !== 'PUBLISHING',
      )
      expect(post.status).toBe('PUBLISHED')
      expect(new Date(post.targets[0].publishedAt).getTime()).toBeGreaterThanOrEqual(new Date(scheduledAt).getTime())
      const permalink = new URL(post.targets[0].permalink)
      const page = await t.app.request(permalink.pathname)
      expect(page.status).toBe(200)
      const html = await page.text()
      expect(html).toContain('Hello &lt;world&gt; &amp; friends')
      expect(html.indexOf('second part')).toBeLessThan(html.indexOf('third part'))
    } finally {
      await queue.close()
    }
  })

  it('fails the first attempt of a fail-mode-once account, then publishes on retry', async () => {
    const { t, start } = await liveApp()
    const queue = start()
    try {
      const a = await addSandboxAccount(t.deps.db, t.deps.cipher, {
        workspaceId: t.workspaceId,
        platform: 'CHAT_NET',
        username: 'flaky',
        failMode: 'once',
      })
      const created = await (
        await t.call('POST', '/v1/posts', {
          body: { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'now', caption: 'hi' },
        })
      ).json()
      const failed = await until(
        () => getPost(t, created.id),
        (p) => p.status === 'FAILED',
      )
      expect(failed.targets[0]).toMatchObject({
        status: 'FAILED',
        attempts: 1,
        error: { code: 'rejected', retryable: true },
      })
      await t.call('POST', `/v1/posts/${created.id}/retry`)
      const published = await until(
        () => getPost(t, created.id),
        (p) => p.status === 'PUBLISHED',
      )
      expect(published.targets[0]).toMatchObject({ status: 'PUBLISHED', attempts: 2, error: null })
    } finally {
      await queue.close()
    }
  })

  it('retries a transient failure by itself', async () => {
    const { t, start } = await liveApp()
    const queue = start()
    try {
      const a = await addSandboxAccount(t.deps.db, t.deps.cipher, {
        workspaceId: t.workspaceId,
        platform: 'FEDERATED_NET',
        username: 'wobbly',
        failMode: 'transient',
      })
      const created = await (
        await t.call('POST', '/v1/posts', {
          body: { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'now', caption: 'hi' },
        })
      ).json()
      const published = await until(
        () => getPost(t, created.id),
        (p) => p.status === 'PUBLISHED',
      )
      expect(published.targets[0]).toMatchObject({ status: 'PUBLISHED', attempts: 2 })
    } finally {
      await queue.close()
    }
  })

  it('picks up what is due after a restart', async () => {
    const { t, start } = await liveApp()
    const a = await account(t, 'MESSAGING_NET')
    // Created while the process had a queue that is now gone.
    const created = await (
      await t.call('POST', '/v1/posts', {
        body: {
          type: 'IMAGE',
          accountIds: [a.id],
          mediaIds: [],
          action: 'schedule',
          scheduledAt: new Date(Date.now() + 800).toISOString(),
          caption: 'after restart',
        },
      })
    ).json()
    const queue = start()
    try {
      expect(await requeuePendingTargets(t.deps)).toBeGreaterThanOrEqual(1)
      const post = await until(
        () => getPost(t, created.id),
        (p) => p.status === 'PUBLISHED',
      )
      expect(post.status).toBe('PUBLISHED')
    } finally {
      await queue.close()
    }
  })
})
