import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { afterAll, describe, expect, it } from 'vitest'
import type { EventStreamPolicy } from '../../src/domain/webhooks/event-stream'
import { runDue } from '../support/engine'
import { account } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'
import { until } from '../support/until'

/** One Server-Sent Events message as a client reads it (a comment is `comment`). */
interface Message {
  id?: string
  event?: string
  data?: string
  retry?: string
  comment?: string
}

const servers: Array<ReturnType<typeof serve>> = []
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))))
})

/** The app over real HTTP on loopback; answers its base URL. */
async function listen(t: TestApp): Promise<string> {
  const server = serve({ fetch: t.app.fetch, hostname: '127.0.0.1', port: 0 })
  servers.push(server)
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function parseMessage(block: string): Message {
  const message: Message = {}
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) message.comment = line.slice(1).trim()
    else {
      const at = line.indexOf(': ')
      message[line.slice(0, at) as 'id' | 'event' | 'data' | 'retry'] = line.slice(at + 2)
    }
  }
  return message
}

/** A stream opened with fetch, read message by message as they arrive, until `close`. */
async function openStream(base: string, t: TestApp, options: { query?: string; lastEventId?: string } = {}) {
  const abort = new AbortController()
  const headers: Record<string, string> = { authorization: `Bearer ${t.token}`, 'x-forwarded-for': t.ip }
  if (options.lastEventId) headers['last-event-id'] = options.lastEventId
  const res = await fetch(`${base}/v1/events/stream${options.query ?? ''}`, { headers, signal: abort.signal })
  const messages: Message[] = []
  let ended = false
  const reading = (async () => {
    if (!res.ok || !res.body) return
    const decoder = new TextDecoder()
    let buffer = ''
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true })
        let end = buffer.indexOf('\n\n')
        while (end >= 0) {
          messages.push(parseMessage(buffer.slice(0, end)))
          buffer = buffer.slice(end + 2)
          end = buffer.indexOf('\n\n')
        }
      }
    } catch {
      // aborted by the test
    }
    ended = true
  })()
  const events = () => messages.filter((m) => m.id !== undefined)
  return {
    res,
    messages,
    events,
    ended: () => ended,
    /** Waits until `n` events have arrived; answers them. */
    async waitForEvents(n: number) {
      return until(
        async () => events(),
        (e) => e.length >= n,
      )
    },
    async close() {
      abort.abort()
      await reading
    },
  }
}

const FAST_STREAM: Partial<EventStreamPolicy> = { pollMs: 40, heartbeatMs: 60_000 }

async function streamApp(eventStream: Partial<EventStreamPolicy> = FAST_STREAM) {
  return createTestApp({ parts: (given) => ({ ...given, settings: { ...given.settings, eventStream } }) })
}

/** Makes a draft and deletes it: one `post.deleted` event, committed when this answers. Answers the post id. */
async function deleteDraft(t: TestApp, accountId: string): Promise<string> {
  const res = await t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds: [accountId], mediaIds: [], action: 'draft', caption: 'draft' },
  })
  const id = (await res.json()).id as string
  expect((await t.call('DELETE', `/v1/posts/${id}`)).status).toBe(200)
  return id
}

const payloadOf = (m: Message) => JSON.parse(m.data!)

describe('GET /v1/events/stream', () => {
  it('opens with retry, then sends each new event as the webhook body, with its id and type', async () => {
    const t = await streamApp()
    const base = await listen(t)
    const accountId = (await account(t, 'MICROBLOG_NET')).id
    const before = await deleteDraft(t, accountId)
    const stream = await openStream(base, t)
    expect(stream.res.status).toBe(200)
    expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    expect(stream.res.headers.get('cache-control')).toBe('no-cache')
    await until(
      async () => stream.messages.length,
      (n) => n > 0,
    )
    expect(stream.messages[0]).toEqual({ retry: '2000' })

    const res = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [accountId], mediaIds: [], action: 'now', caption: 'hello' },
    })
    const postId = (await res.json()).id as string
    await runDue(t, t.publishQueue)
    const events = await stream.waitForEvents(2)
    await stream.close()
    expect(events.map((m) => m.event)).toEqual(['target.published', 'post.published'])
    const published = payloadOf(events[1]!)
    expect(published).toMatchObject({ type: 'post.published', workspaceId: t.workspaceId, data: { id: postId } })
    expect(events[1]!.id).toBe(published.id)
    // Exactly what GET /v1/events lists (and a delivery carries); the event before the stream opened is not sent.
    const listed = (await (await t.call('GET', '/v1/events?limit=10')).json()).data as any[]
    expect(listed.find((e) => e.id === published.id)).toEqual(published)
    expect(events.some((m) => payloadOf(m).data.id === before)).toBe(false)
  })

  it('resumes after Last-Event-ID with exactly the missed events, then live ones', async () => {
    const t = await streamApp()
    const base = await listen(t)
    const accountId = (await account(t, 'MICROBLOG_NET')).id
    const first = await openStream(base, t)
    await deleteDraft(t, accountId)
    await deleteDraft(t, accountId)
    const seen = await first.waitForEvents(2)
    await first.close()
    const missed = [await deleteDraft(t, accountId), await deleteDraft(t, accountId), await deleteDraft(t, accountId)]

    const second = await openStream(base, t, { lastEventId: seen[1]!.id! })
    const replayed = await second.waitForEvents(3)
    expect(replayed.map((m) => payloadOf(m).data.id)).toEqual(missed)
    const live = await deleteDraft(t, accountId)
    const all = await second.waitForEvents(4)
    await second.close()
    expect(all.map((m) => payloadOf(m).data.id)).toEqual([...missed, live])
    expect(new Set(all.map((m) => m.id)).size).toBe(4)

    // The query parameter does the same for a client that cannot set headers; an older id replays more.
    const third = await openStream(base, t, { query: `?lastEventId=${seen[0]!.id}&types=post.deleted` })
    const again = await third.waitForEvents(5)
    await third.close()
    expect(again.map((m) => m.id)).toEqual([seen[1]!.id, ...all.map((m) => m.id)])
  })

  it("sends only the workspace's own events, of the types asked for", async () => {
    const t = await streamApp()
    const other = await streamApp()
    const base = await listen(t)
    const mine = (await account(t, 'MICROBLOG_NET')).id
    const theirs = (await account(other, 'MICROBLOG_NET')).id
    const stream = await openStream(base, t, { query: '?types=post.published' })
    const all = await openStream(base, t)
    await deleteDraft(other, theirs)
    await deleteDraft(t, mine)
    await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [mine], mediaIds: [], action: 'now', caption: 'hello' },
    })
    await runDue(t, t.publishQueue)
    const events = await stream.waitForEvents(1)
    await all.waitForEvents(3)
    await deleteDraft(other, theirs)
    await deleteDraft(t, mine)
    const everything = await all.waitForEvents(4)
    await stream.close()
    await all.close()
    expect(events.map((m) => m.event)).toEqual(['post.published'])
    expect(everything.map((m) => m.event)).toEqual([
      'post.deleted',
      'target.published',
      'post.published',
      'post.deleted',
    ])
    expect(everything.every((m) => payloadOf(m).workspaceId === t.workspaceId)).toBe(true)
  })

  it('sends a heartbeat comment at the configured interval', async () => {
    const t = await streamApp({ pollMs: 40, heartbeatMs: 150 })
    const stream = await openStream(await listen(t), t)
    const beats = await until(
      async () => stream.messages.filter((m) => m.comment === 'heartbeat').length,
      (n) => n >= 2,
    )
    await stream.close()
    expect(beats).toBeGreaterThanOrEqual(2)
  })

  it('refuses an unknown type with 422 before the stream opens', async () => {
    const t = await streamApp()
    const res = await t.call('GET', '/v1/events/stream?types=post.published,post.exploded')
    expect(res.status).toBe(422)
    const body = await res.json()
    expect(body.error).toMatchObject({ code: 'invalid_option', details: [{ path: 'query.types' }] })
    expect(body.error.message).toContain('post.exploded')
  })

  it('starts with a reset message and then live events when the Last-Event-ID is unknown', async () => {
    const t = await streamApp()
    const other = await streamApp()
    const accountId = (await account(other, 'MICROBLOG_NET')).id
    await deleteDraft(other, accountId)
    const foreign = ((await (await other.call('GET', '/v1/events')).json()).data as any[])[0].id as string
    const base = await listen(t)
    for (const lastEventId of ['evt_doesNotExist', foreign]) {
      const stream = await openStream(base, t, { lastEventId })
      await until(
        async () => stream.messages.length,
        (n) => n >= 2,
      )
      await stream.close()
      expect(stream.messages[1]).toMatchObject({ event: 'reset' })
      expect(JSON.parse(stream.messages[1]!.data!)).toMatchObject({ reason: 'unknown_event' })
      expect(stream.messages[1]!.id).toBeUndefined()
    }
  })

  it('caps the streams a workspace holds open with 429, and frees a slot when a client leaves', async () => {
    const t = await streamApp({ pollMs: 40, heartbeatMs: 60_000, maxPerWorkspace: 2 })
    const base = await listen(t)
    const a = await openStream(base, t)
    const b = await openStream(base, t)
    const refused = await t.call('GET', '/v1/events/stream')
    expect(refused.status).toBe(429)
    expect((await refused.json()).error.code).toBe('rate_limited')
    await a.close()
    const status = await until(
      async () => {
        const res = await t.call('GET', '/v1/events/stream')
        const got = res.status
        await res.body?.cancel()
        return got
      },
      (s) => s === 200,
    )
    expect(status).toBe(200)
    await b.close()
  })

  it('ends the stream when its lifetime is over', async () => {
    const t = await streamApp({ pollMs: 40, heartbeatMs: 60_000, lifetimeMs: 300 })
    const stream = await openStream(await listen(t), t)
    expect(
      await until(
        async () => stream.ended(),
        (e) => e,
      ),
    ).toBe(true)
  })
})
