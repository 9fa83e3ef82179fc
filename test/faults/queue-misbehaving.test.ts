import { inject } from 'vitest'
import { afterEach, describe, expect, it } from 'vitest'
import { databaseOf, recordFault, secondsSince } from './support/fault-report'
import { describeAnswers, startQStashRig, type QStashRig } from './support/qstash-rig'
import type { LocalQStashOptions } from '../support/qstash-local'

/**
 * Issue 35, item 4: the queue misbehaving, on the QStash path (the app as on Workers, the loopback
 * stand-in delivering signed callbacks over HTTP, the real messaging adapter posting to its loopback
 * fake). Each mode: every target published once, an edited post only in its new form, a deleted or
 * moved post never (or not early), a callback before its post is visible not losing the target.
 */
const database = databaseOf(inject('databaseUrl'))
let rig: QStashRig | null = null
afterEach(async () => {
  await rig?.close()
  rig = null
})

const start = async (qstash: LocalQStashOptions = {}) => (rig = await startQStashRig({ qstash }))

/** Counts, over captions that must go out once and captions that must never go out. */
function tally(r: QStashRig, once: string[], never: string[] = []) {
  const sent = once.map((c) => r.sent(c))
  return {
    targets: once.length,
    lost: sent.filter((n) => n === 0).length,
    duplicated: sent.reduce((sum, n) => sum + Math.max(0, n - 1), 0),
    wrong: never.reduce((sum, c) => sum + r.sent(c), 0),
  }
}

/**
 * Posts due in a minute while the queue holds every message: a third edited (new caption), a third
 * deleted, a third moved two hours on, the rest left alone; then the clock moves `lateSec` past the
 * due time and the held messages (old versions, new versions, the moved ones' early ones) arrive
 * at once in `order`. Then the clock reaches the moved posts' time and the sweep runs.
 */
async function editDeleteMove(r: QStashRig, order: 'arrival' | 'reverse' | 'shuffle', lateSec: number, n = 3) {
  const due = new Date(r.clock.now().getTime() + 60_000)
  r.qstash.hold()
  const kinds = ['edit', 'delete', 'move', 'keep'] as const
  const posts = []
  for (let i = 0; i < n; i++)
    for (const kind of kinds) posts.push({ kind, caption: `${kind}-${i}-${crypto.randomUUID()}`, id: '' })
  for (const p of posts) p.id = (await r.create(p.caption, due)).id
  r.advance(30)
  const moved = new Date(due.getTime() + 2 * 3600_000)
  for (const p of posts) {
    const res =
      p.kind === 'edit'
        ? await r.t.call('PATCH', `/v1/posts/${p.id}`, {
            body: { caption: `${p.caption}-new`, action: 'schedule', scheduledAt: due.toISOString() },
          })
        : p.kind === 'delete'
          ? await r.t.call('DELETE', `/v1/posts/${p.id}`)
          : p.kind === 'move'
            ? await r.t.call('POST', `/v1/posts/${p.id}/schedule`, { body: { scheduledAt: moved.toISOString() } })
            : null
    if (res) expect(res.status, `${p.kind}: ${await res.clone().text()}`).toBeLessThan(300)
  }
  r.clock.set(new Date(due.getTime() + lateSec * 1000).toISOString())
  const held = r.qstash.release(order)
  const released = Date.now()
  await r.settle()
  const beforeMove = {
    moved: posts.filter((p) => p.kind === 'move').reduce((s, p) => s + r.sent(p.caption), 0),
  }
  r.clock.set(new Date(moved.getTime() + 31_000).toISOString())
  await r.sweep()
  await r.settle()
  const recoverySec = secondsSince(released)
  const once = posts.flatMap((p) => (p.kind === 'edit' ? [`${p.caption}-new`] : p.kind === 'delete' ? [] : [p.caption]))
  const never = posts.flatMap((p) => (p.kind === 'edit' || p.kind === 'delete' ? [p.caption] : []))
  return { ...tally(r, once, never), held, recoverySec, publishedEarly: beforeMove.moved }
}

describe('item 4: the queue misbehaving (QStash path)', () => {
  it('4-queue-duplicate: every callback delivered twice, at once or one after the other', async () => {
    const captions: string[] = []
    const answers: Record<string, number> = {}
    for (const [mode, n] of [
      ['concurrent', 10],
      ['sequential', 5],
    ] as const) {
      const r = await start({ duplicate: mode })
      for (let i = 0; i < n; i++) {
        const caption = `dup-${mode}-${i}-${crypto.randomUUID()}`
        captions.push(caption)
        await r.create(caption)
      }
      await r.settle()
      const counts = tally(r, captions.slice(-n))
      expect(counts.lost + counts.duplicated).toBe(0)
      for (const [k, v] of Object.entries(r.answers())) answers[`${mode}: ${k}`] = v
      await r.close()
      rig = null
    }
    const published = Object.entries(answers).filter(([k]) => k.includes('"published"'))
    const row = recordFault({
      id: '4-queue-duplicate',
      fault: 'QStash delivers every callback twice',
      injected:
        'the stand-in delivers each message twice: 10 posts both at once, 5 the second after the first answered',
      during: '15 posts published now to MESSAGING_NET (no idempotency on that network)',
      duration: 'every callback',
      meanwhile: describeAnswers(answers),
      recoverySec: null,
      targets: captions.length,
      lost: 0,
      duplicated: 0,
      database,
      note: 'the second delivery finds the target claimed or published: 200 {"outcome":"skipped"}, a no-op',
    })
    expect(row.targets).toBe(15)
    expect(published.reduce((s, [, n]) => s + n, 0)).toBe(15)
    expect(Object.keys(answers).every((k) => /: 200 /.test(k))).toBe(true)
  })

  it('4-queue-late: callbacks 10 minutes late, after edits, deletes and moves', async () => {
    const r = await start()
    const res = await editDeleteMove(r, 'arrival', 600)
    const row = recordFault({
      id: '4-queue-late',
      fault: 'QStash delivers 10 minutes late',
      injected:
        'the stand-in holds every message, the clock moves 10 min past the due time, then all arrive at once (old and new versions)',
      during: '12 posts due in a minute: 3 edited, 3 deleted, 3 moved 2 h on, 3 left alone, before the late delivery',
      duration: '10 min (test clock)',
      meanwhile: describeAnswers(r.answers()),
      recoverySec: res.recoverySec,
      targets: res.targets,
      lost: res.lost,
      duplicated: res.duplicated,
      database,
      note: `published in an old form or after delete: ${res.wrong}; moved posts published early: ${res.publishedEarly} (they went out once the sweep ran at their new time)`,
    })
    expect(res.held).toBeGreaterThanOrEqual(12)
    expect([row.lost, row.duplicated, res.wrong, res.publishedEarly]).toEqual([0, 0, 0, 0])
  })

  it("4-queue-out-of-order: an edit's callback before the original's, and shuffled", async () => {
    const r = await start()
    const reversed = await editDeleteMove(r, 'reverse', 5)
    const shuffled = await editDeleteMove(r, 'shuffle', 5)
    const row = recordFault({
      id: '4-queue-out-of-order',
      fault: 'QStash delivers out of order',
      injected: "held messages released newest first (an edit's callback before the original's), then shuffled",
      during: '2 rounds of 12 posts: 3 edited, 3 deleted, 3 moved 2 h on, 3 left alone',
      duration: 'every callback',
      meanwhile: describeAnswers(r.answers()),
      recoverySec: null,
      targets: reversed.targets + shuffled.targets,
      lost: reversed.lost + shuffled.lost,
      duplicated: reversed.duplicated + shuffled.duplicated,
      database,
      note: `published in an old form or after delete: ${reversed.wrong + shuffled.wrong}; moved posts published early: ${reversed.publishedEarly + shuffled.publishedEarly}`,
    })
    expect([row.lost, row.duplicated, reversed.wrong + shuffled.wrong]).toEqual([0, 0, 0])
    expect(reversed.publishedEarly + shuffled.publishedEarly).toBe(0)
  })

  it("4-queue-early: a callback before its post's transaction is visible", async () => {
    const r = await start()
    const captions: string[] = []
    const early: string[] = []
    for (let i = 0; i < 3; i++) {
      const caption = `early-${i}-${crypto.randomUUID()}`
      captions.push(caption)
      r.beforeNextCommit(async (written) => {
        // The queue is handed the delivery inside the create's transaction, and delivers at once.
        const from = r.qstash.attempts.length
        await r.t.deps.publishQueue.enqueue(
          written.targets.map((t) => ({
            targetId: t.id,
            version: written.post.version,
            notBefore: t.dueAt!,
            attempt: t.attempts + 1,
          })),
        )
        const deadline = Date.now() + 2_000
        while (Date.now() < deadline && !r.qstash.attempts.slice(from).some((a) => a.answer !== undefined))
          await new Promise((res) => setTimeout(res, 20))
        early.push(
          ...r.qstash.attempts
            .slice(from)
            .map((a) => (a.answer === undefined ? 'no answer before the commit' : `${a.status} ${a.answer}`)),
        )
      })
      await r.create(caption)
    }
    await r.settle()
    const beforeSweep = captions.map((c) => r.sent(c))
    const answeredEarly = r.answers()
    const started = Date.now()
    r.advance(31)
    const report = await r.sweep()
    await r.settle()
    const recoverySec = secondsSince(started)
    r.advance(120)
    await r.sweep()
    await r.settle()
    const counts = tally(r, captions)
    const row = recordFault({
      id: '4-queue-early',
      fault: 'QStash delivers before the post is visible',
      injected:
        "each create's transaction hands its delivery to QStash before committing and waits up to 2 s for the callback's answer",
      during: '3 posts published now',
      duration: 'until the commit',
      meanwhile: `while uncommitted: ${early.join(', ')}; overall: ${describeAnswers(r.answers())}`,
      recoverySec,
      targets: counts.targets,
      lost: counts.lost,
      duplicated: counts.duplicated,
      database,
      note:
        database === 'postgres'
          ? `the early callback finds no row: 200 skipped; the create's own dispatch is de-duplicated, the sweep (30 s grace, test clock) re-dispatches it under a new id: ${report.redispatched} re-dispatched`
          : `PGlite has one connection: the callback's claim waits for the commit, then publishes (${beforeSweep.join('/')} before the sweep)`,
    })
    expect(Object.keys(answeredEarly).every((k) => k.startsWith('200 '))).toBe(true)
    expect([row.lost, row.duplicated]).toEqual([0, 0])
  })

  it('4-queue-key-rotation: signed with the next key, then with a wrong one', async () => {
    let key: 'next' | 'wrong' | 'current' = 'next'
    const r = await start({
      signingKey: () =>
        key === 'next' ? r.qstash.nextSigningKey : key === 'wrong' ? 'sig_wrong_key' : r.qstash.currentSigningKey,
    })
    const rotated = Array.from({ length: 5 }, (_, i) => `next-key-${i}-${crypto.randomUUID()}`)
    for (const c of rotated) await r.create(c)
    await r.settle()
    const nextAnswers = r.answers()
    expect(tally(r, rotated)).toMatchObject({ lost: 0, duplicated: 0 })
    key = 'wrong'
    const from = r.qstash.attempts.length
    const forged = Array.from({ length: 3 }, (_, i) => `wrong-key-${i}-${crypto.randomUUID()}`)
    for (const c of forged) await r.create(c)
    await r.settle()
    const wrongAnswers = r.answers(from)
    const publishedUnderWrongKey = forged.reduce((s, c) => s + r.sent(c), 0)
    key = 'current'
    const started = Date.now()
    r.advance(31)
    await r.sweep()
    await r.settle()
    const recoverySec = secondsSince(started)
    const counts = tally(r, [...rotated, ...forged])
    const row = recordFault({
      id: '4-queue-key-rotation',
      fault: 'QStash signs with the next key (rotation), then with a wrong key',
      injected:
        'the stand-in signs every delivery with the next signing key, then with a key the service does not have',
      during: '5 posts under the next key, 3 under the wrong key, then the right key back',
      duration: 'every callback',
      meanwhile: `next key: ${describeAnswers(nextAnswers)}; wrong key: ${describeAnswers(wrongAnswers)}`,
      recoverySec,
      targets: counts.targets,
      lost: counts.lost,
      duplicated: counts.duplicated,
      database,
      note: `published under the wrong key: ${publishedUnderWrongKey}; its targets went out once the key was right and the sweep re-dispatched them (30 s grace, test clock)`,
    })
    expect(Object.keys(nextAnswers).every((k) => k.startsWith('200 '))).toBe(true)
    expect(Object.keys(wrongAnswers)).toEqual(['401 unauthorized'])
    expect(publishedUnderWrongKey).toBe(0)
    expect([row.lost, row.duplicated]).toEqual([0, 0])
  })
})
