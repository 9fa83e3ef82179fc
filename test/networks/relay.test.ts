/**
 * The relay network (Nostr) through the engine against loopback relays (test/fakes/relay.ts):
 * notes signed once and sent to the account's write relays, success on one relay's OK, a refusal
 * per relay as a note in progress, silence retried with the same event, reconciliation by id.
 */
import { eq } from 'drizzle-orm'
import type { Event } from 'nostr-tools'
import { decode } from 'nostr-tools/nip19'
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from 'nostr-tools/pure'
import { bytesToHex } from 'nostr-tools/utils'
import { afterEach, describe, expect, it } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import type { PublishProgress } from '../../src/networks/adapter'
import { connectAccount } from '../../src/services/accounts/connection'
import { claimTarget } from '../../src/services/publishing/claim'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { startRelayFake, type RelayFake } from '../fakes/relay'
import { runDue } from '../support/engine'
import { fixedClock, storedMedia } from '../support/fixtures'
import { jpeg, paint } from '../support/media'
import { createTestApp, type TestApp } from '../support/test-app'

const open: RelayFake[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()))
})

async function relays(n: number) {
  const started = await Promise.all(Array.from({ length: n }, () => startRelayFake()))
  open.push(...started)
  return started
}

/** The user's NIP-65 relay list, as their client would have published it. */
const relayList = (key: Uint8Array, write: string[]) =>
  finalizeEvent({ kind: 10002, created_at: 1_700_000_000, content: '', tags: write.map((r) => ['r', r]) }, key)

async function setup() {
  const clock = fixedClock('2026-11-21T10:00:00Z')
  const [a, b] = await relays(2)
  const t = await createTestApp({
    clock,
    publishing: { backoffBaseSec: 10, maxAttempts: 3, leaseSec: 60, sweepGraceSec: 30, random: () => 0.5 },
    parts: (p) => ({ ...p, settings: { ...p.settings, networkDeadlineCapMs: 800 } }),
  })
  const key = generateSecretKey()
  a!.events.push(relayList(key, [a!.url, b!.url]))
  const acct = await connectAccount(t.deps, {
    workspaceId: t.workspaceId,
    platform: 'RELAY_NET',
    connection: 'PRIVATE_KEY',
    credentials: { privateKey: bytesToHex(key), relays: a!.url },
  })
  return { t, clock, a: a!, b: b!, key, acct }
}

const createPost = async (t: TestApp, accountId: string, body: Record<string, unknown>) =>
  t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', mediaIds: [], accountIds: [accountId], action: 'now', ...body },
  })
const getPost = async (t: TestApp, id: string) => (await t.call('GET', `/v1/posts/${id}`)).json()
const notes = (relay: RelayFake) => relay.events.filter((e) => e.kind === 1)
const progressOf = async (t: TestApp, postId: string) =>
  (await t.deps.db.select().from(targets).where(eq(targets.postId, postId)))[0]!.progress as Record<string, unknown>

describe('RELAY_NET adapter', () => {
  it('connects a key, reads its relay list (NIP-65) and stores the write relays, never the key in the clear', async () => {
    const { t, a, b, key, acct } = await setup()
    expect(acct.username).toMatch(/^npub1/)
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, acct.id))
    expect(row!.externalId).toBe(getPublicKey(key))
    expect(JSON.stringify(row)).not.toContain(bytesToHex(key))
    const listed = await (await t.call('GET', `/v1/accounts/${acct.id}`)).text()
    expect(listed).not.toContain(bytesToHex(key))
    expect(decode(acct.username)).toMatchObject({ type: 'npub', data: getPublicKey(key) })
    // Both write relays of the list are used: a note reaches each.
    const p = await (await createPost(t, acct.id, { caption: 'to both relays' })).json()
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    expect(notes(a)).toHaveLength(1)
    expect(notes(b)).toHaveLength(1)
  })

  it('publishes text exactly as written, and media by public URL with imeta tags', async () => {
    const { t, a, key, acct } = await setup()
    const m = await storedMedia(t, {
      bytes: await jpeg(paint(40, 30, () => [10, 200, 10])),
      mimeType: 'image/jpeg',
      width: 40,
      height: 30,
      altText: 'A green field',
    })
    const caption = 'Hello <b>world</b> & #tag https://example.com/x?y=1'
    const p = await (await createPost(t, acct.id, { caption, mediaIds: [m] })).json()
    await runDue(t, t.publishQueue)
    const after = await getPost(t, p.id)
    expect(after.status).toBe('PUBLISHED')
    const [note] = notes(a)
    expect(verifyEvent(note!)).toBe(true)
    expect(note!.pubkey).toBe(getPublicKey(key))
    const url = note!.tags
      .find((tag) => tag[0] === 'imeta')!
      .find((f) => f.startsWith('url '))!
      .slice(4)
    expect(note!.content).toBe(`${caption}\n${url}`)
    expect(note!.tags[0]).toEqual(expect.arrayContaining(['m image/jpeg', 'dim 40x30', 'alt A green field']))
    expect(after.targets[0]).toMatchObject({
      platformPostId: note!.id,
      permalink: expect.stringMatching(/^nostr:nevent1/),
    })
  })

  it('publishes a thread as replies with NIP-10 root and reply tags and the author p tag', async () => {
    const { t, a, key, acct } = await setup()
    const p = await (await createPost(t, acct.id, { caption: 'one', threadParts: ['two', 'three'] })).json()
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    const [head, two, three] = notes(a) as [Event, Event, Event]
    const author = getPublicKey(key)
    expect(two.tags).toEqual([
      ['e', head.id, a.url, 'root', author],
      ['p', author],
    ])
    expect(three.tags).toEqual([
      ['e', head.id, a.url, 'root', author],
      ['e', two.id, a.url, 'reply', author],
      ['p', author],
    ])
  })

  it('refuses each limit at create: caption length and bytes, media count, thread length', async () => {
    const { t, acct } = await setup()
    const media = await Promise.all(
      Array.from({ length: 5 }, () => storedMedia(t, { bytes: new Uint8Array(10), mimeType: 'image/jpeg' })),
    )
    for (const body of [
      { caption: 'x'.repeat(8001) },
      { caption: '€'.repeat(10_700) },
      { caption: 'five', mediaIds: media },
      { caption: 'long thread', threadParts: Array.from({ length: 26 }, (_, i) => `part ${i}`) },
    ]) {
      const res = await createPost(t, acct.id, body)
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(422)
    }
  })

  it('one relay refusing while another accepts is published, the refusal kept; all refusing is rejected', async () => {
    const { t, a, b, acct } = await setup()
    b.refuse('blocked: not on the allow list')
    const p = await (await createPost(t, acct.id, { caption: 'half accepted' })).json()
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    expect((await progressOf(t, p.id)).refusals).toEqual([expect.stringContaining('blocked: not on the allow list')])
    const [row] = await t.deps.db.select().from(targets).where(eq(targets.postId, p.id))
    expect(row!.warnings).toEqual([expect.stringContaining(`${b.url}: blocked: not on the allow list`)])
    a.refuse('restricted: paid relay')
    const q = await (await createPost(t, acct.id, { caption: 'refused everywhere' })).json()
    await runDue(t, t.publishQueue)
    const after = await getPost(t, q.id)
    expect(after.targets[0]).toMatchObject({ status: 'FAILED', error: { code: 'rejected' } })
    expect(after.targets[0].error.message).toContain('restricted: paid relay')
  })

  it('relays stalling: transient, retried with the same signed event, which appears once', async () => {
    const { t, clock, a, b, acct } = await setup()
    a.stall(true)
    b.stall(true)
    const p = await (await createPost(t, acct.id, { caption: 'stalled' })).json()
    await runDue(t, t.publishQueue)
    const first = await getPost(t, p.id)
    expect(first.targets[0]).toMatchObject({ status: 'PENDING', error: { code: 'transient' } })
    const signed = (await progressOf(t, p.id)).signed as Event[]
    expect(signed).toHaveLength(1)
    a.stall(false)
    b.stall(false)
    clock.set('2026-11-21T10:05:00Z')
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({ status: 'PUBLISHED', platformPostId: signed[0]!.id })
    expect(notes(a).map((e) => e.id)).toEqual([signed[0]!.id])
  })

  it('relays answering rate-limited: the target waits as rate_limited, then publishes the same event', async () => {
    const { t, clock, a, b, acct } = await setup()
    a.refuse('rate-limited: slow down')
    b.refuse('rate-limited: slow down')
    const p = await (await createPost(t, acct.id, { caption: 'too fast' })).json()
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({ status: 'PENDING', error: { code: 'rate_limited' } })
    a.refuse(null)
    b.refuse(null)
    clock.set('2026-11-21T10:05:00Z')
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    expect(notes(a)).toHaveLength(1)
    expect(a.received.filter((e) => e.kind === 1)).toHaveLength(2)
    expect(new Set(a.received.map((e) => e.id)).size).toBe(1)
  })

  it('settles an unconfirmed publish by asking the relays for its id: found is published, never sent is absent', async () => {
    const { t, clock, a, acct } = await setup()
    const p1 = await (await createPost(t, acct.id, { caption: 'sent before the crash' })).json()
    const p2 = await (await createPost(t, acct.id, { caption: 'never sent' })).json()
    const [d1, d2] = t.publishQueue.takeDue(new Date(8.64e15))
    const c1 = await claimTarget(t.deps.db, d1!.targetId, d1!.version, clock.now(), 60)
    await claimTarget(t.deps.db, d2!.targetId, d2!.version, clock.now(), 60)
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, acct.id))
    const credentials = await t.deps.cipher.decrypt(row!.credentials, row!.id)
    // The note goes out; the process dies before the relays' answer is recorded (only the signed event was saved).
    const saved: PublishProgress = {}
    await t.deps.networks.adapterFor('RELAY_NET', 'PRIVATE_KEY')!.publish({
      idempotencyKey: c1!.target.id,
      accountId: acct.id,
      connection: 'PRIVATE_KEY',
      credentials,
      content: {
        platform: 'RELAY_NET',
        type: 'IMAGE',
        text: 'sent before the crash',
        media: [],
        threadParts: [],
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
      progress: {},
      saveProgress: async (next) => {
        if (saved.signed) return
        Object.assign(saved, next)
        await t.deps.db.update(targets).set({ progress: saved }).where(eq(targets.id, c1!.target.id))
      },
      attempt: 1,
      fetch,
      baseUrl: '',
      now: clock.now(),
    })
    expect(notes(a)).toHaveLength(1)
    clock.set('2026-11-21T10:02:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ confirmed: 2, unconfirmed: 0 })
    expect((await getPost(t, p1.id)).targets[0]).toMatchObject({ status: 'PUBLISHED', platformPostId: notes(a)[0]!.id })
    expect((await getPost(t, p2.id)).targets[0].status).toBe('PENDING')
    expect(notes(a)).toHaveLength(1)
  })

  it('deletes with a kind 5 event naming the note and its thread parts (NIP-09)', async () => {
    const { t, a, acct } = await setup()
    const p = await (await createPost(t, acct.id, { caption: 'to delete', threadParts: ['reply'] })).json()
    await runDue(t, t.publishQueue)
    const [head, part] = notes(a) as [Event, Event]
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, acct.id))
    const credentials = await t.deps.cipher.decrypt(row!.credentials, row!.id)
    await t.deps.networks.adapterFor('RELAY_NET', 'PRIVATE_KEY')!.deletePost!({
      connection: 'PRIVATE_KEY',
      credentials,
      platformPostId: head.id,
      fetch,
      baseUrl: '',
      now: new Date(),
    })
    const deletion = a.events.find((e) => e.kind === 5)!
    expect(verifyEvent(deletion)).toBe(true)
    expect(deletion.tags.filter((tag) => tag[0] === 'e').map((tag) => tag[1])).toEqual([head.id, part.id])
    expect(p.id).toBeTruthy()
  })

  it('refuses a private relay address before opening a socket to it', async () => {
    const [relay] = await relays(1)
    const t = await createTestApp({ allowPrivateUrls: false })
    const connect = (relays: string) =>
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'RELAY_NET',
        connection: 'PRIVATE_KEY',
        credentials: { privateKey: bytesToHex(generateSecretKey()), relays },
      })
    const port = new URL(relay!.url).port
    await expect(connect(`wss://127.0.0.1:${port}`)).rejects.toThrow(/127\.0\.0\.1 is a loopback address/)
    await expect(connect('wss://10.1.2.3')).rejects.toThrow(/10\.1\.2\.3 is a private address/)
    await expect(connect(relay!.url)).rejects.toThrow(/must be a public wss address/)
    expect(relay!.received).toHaveLength(0)
  })
})
