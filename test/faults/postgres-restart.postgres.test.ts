/**
 * Issue 35, item 1: PostgreSQL going away mid-burst, on a server of the test's own (the machine's
 * shared one is never touched). A real `npm start` server publishes a burst of targets due at one
 * moment to a loopback network behind a delaying proxy; once a fifth of them are out, (a) the
 * database is stopped (`pg_ctl stop -m fast`) for 10 s, the API polled meanwhile, then started
 * again; (b) every connection of the service's database is cut with `pg_terminate_backend`, twice
 * 1.5 s apart. Meanwhile the API must answer 503 with `Retry-After` and `retryAfterSec` (no hang, no
 * 500), and the server must not exit; afterwards every target must settle within 60 s (claims taken
 * before the fault resolved as a restart resolves them, not after their five-minute lease), none
 * lost, none published twice. Only with DATABASE_URL: PGlite cannot be stopped under the process.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordFault, secondsSince } from './support/fault-report'
import { type PrivatePostgres, startPrivatePostgres } from './support/private-postgres'
import {
  type Answer,
  type Burst,
  createBurst,
  describeAnswers,
  pollApi,
  settleAndJudge,
  sleep,
  startBurstServer,
} from './support/publish-burst'

/**
 * 2,000 (the issue's figure) passed in 151 s on a quiet machine; with the other engineers' runs
 * creating them took past a 24 s lead, so the default is 1,000 (FAULT_PG_TARGETS=2000 for the full burst).
 */
const TARGETS = Number(process.env.FAULT_PG_TARGETS ?? 1000)
const DOWN_MS = 10_000
const SETTLE_LIMIT_SEC = 60
/** Time to create the burst before it falls due. */
const LEAD_MS = Math.max(10_000, TARGETS * 25)
const SAMPLE_NOTE =
  TARGETS < 2000
    ? ` ${TARGETS} targets rather than the issue's 2,000, to keep the file near 2 minutes on a shared 2-core machine (2,000 passed: FAULT_PG_TARGETS=2000).`
    : ''

let postgres: PrivatePostgres
const dirs: string[] = []
beforeAll(async () => {
  postgres = await startPrivatePostgres()
})
afterAll(async () => {
  await postgres?.stop({ mode: 'immediate', remove: true })
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A database of its own, a server on it, the burst created and fallen due, a fifth of it published. */
async function burstUnderWay(name: string): Promise<{ burst: Burst; url: string }> {
  const url = await postgres.createDatabase(name)
  const dir = mkdtempSync(join(tmpdir(), `sps-${name}-`))
  dirs.push(dir)
  const burst = await startBurstServer(dir, url)
  const due = new Date(Date.now() + LEAD_MS)
  await createBurst(burst, TARGETS, due)
  expect(Date.now(), `creating ${TARGETS} posts ran past their due time`).toBeLessThan(due.getTime())
  await sleep(due.getTime() - Date.now())
  while (burst.messaging.messages.length < TARGETS * 0.2 && Date.now() - due.getTime() < 30_000) await sleep(20)
  return { burst, url }
}

/** The promises of every fault: what the API answered, and what became of the burst. */
function expectPromisesKept(answers: Answer[], verdict: Awaited<ReturnType<typeof settleAndJudge>>, burst: Burst) {
  const api = answers.filter((a) => a.what !== 'GET /health')
  expect(api.filter((a) => a.status === 0 || a.status === 500)).toEqual([])
  expect(api.filter((a) => a.status === 503).length, 'the API refused while the database was away').toBeGreaterThan(0)
  for (const a of api.filter((x) => x.status === 503)) {
    expect(a.code).toBe('service_unavailable')
    expect(a.retryAfter).not.toBeNull()
    expect(a.retryAfterSec).toBe(Number(a.retryAfter))
  }
  expect(burst.server.exited, 'the server exited').toBe(false)
  expect(verdict.targets).toBe(TARGETS)
  expect(verdict.lost).toBe(0)
  expect(verdict.duplicated).toBe(0)
  expect(verdict.settled, `settled within ${SETTLE_LIMIT_SEC} s`).toBe(true)
}

const logLines = (burst: Burst, pattern: RegExp) =>
  burst.server.server
    .output()
    .split('\n')
    .filter((l) => pattern.test(l))

describe('PostgreSQL going away mid-burst', () => {
  it('stopped for 10 s and started again: 503 with Retry-After meanwhile, every target settled, none lost or twice', async () => {
    const { burst, url } = await burstUnderWay('fault_restart')
    try {
      const sentAtStop = burst.messaging.messages.length
      await postgres.stop({ mode: 'fast' })
      const stoppedAt = Date.now()
      const answers = await pollApi(burst, () => Date.now() - stoppedAt >= DOWN_MS)
      await postgres.start()
      const back = Date.now()
      const verdict = await settleAndJudge(burst, url, TARGETS, (SETTLE_LIMIT_SEC + 30) * 1000)
      const recoverySec = verdict.settledAt === null ? null : secondsSince(back, verdict.settledAt)
      const resolved = logLines(burst, /stranded_deliveries_resolved/)
      console.log(
        `postgres restart: stopped with ${sentAtStop} of ${TARGETS} sent; ${describeAnswers(answers)}; ` +
          `settled ${recoverySec} s after the start; ${JSON.stringify(verdict)}; ${resolved.join(' | ').slice(0, 600)}`,
      )
      recordFault({
        id: '1-postgres-restart',
        fault: 'PostgreSQL restarted mid-burst',
        injected: "the test's own PostgreSQL stopped (pg_ctl stop -m fast), started again 10 s later",
        during: `${TARGETS} targets due at once on one server, ${sentAtStop} of them sent`,
        duration: '10 s',
        meanwhile: describeAnswers(answers),
        recoverySec,
        targets: verdict.targets,
        lost: verdict.lost,
        duplicated: verdict.duplicated,
        database: 'postgres',
        note:
          `Recovery counted from the start. ${verdict.published} published once, ${verdict.unconfirmed} failed ` +
          `\`unconfirmed\` (a send on the wire at the stop the network cannot look up).${SAMPLE_NOTE}`,
      })
      expectPromisesKept(answers, verdict, burst)
      expect(recoverySec!).toBeLessThanOrEqual(SETTLE_LIMIT_SEC)
    } finally {
      await burst.close()
    }
  })

  it("every connection of the service's database cut twice, 1.5 s apart: every target settled, none lost or twice", async () => {
    const { burst, url } = await burstUnderWay('fault_terminate')
    try {
      const sentAtCut = burst.messaging.messages.length
      const started = Date.now()
      let done = false
      const polling = pollApi(burst, () => done)
      const first = await postgres.terminateBackends('fault_terminate')
      await sleep(1500)
      const second = await postgres.terminateBackends('fault_terminate')
      const cutAt = Date.now()
      await sleep(1000)
      done = true
      const polledSec = secondsSince(started)
      const answers = await polling
      const verdict = await settleAndJudge(burst, url, TARGETS, (SETTLE_LIMIT_SEC + 30) * 1000)
      const recoverySec = verdict.settledAt === null ? null : secondsSince(cutAt, verdict.settledAt)
      const meanwhile = describeAnswers(answers)
      console.log(
        `postgres connections killed: ${first} then ${second} backends, ${sentAtCut} of ${TARGETS} sent; ` +
          `${meanwhile}; settled ${recoverySec} s after the second cut (${polledSec} s polled); ` +
          `${JSON.stringify(verdict)}; ${logLines(burst, /stranded_deliveries_resolved/)
            .join(' | ')
            .slice(0, 600)}`,
      )
      recordFault({
        id: '1-postgres-connections-killed',
        fault: 'PostgreSQL connections killed mid-burst',
        injected: `pg_terminate_backend on every connection of the service's database, twice 1.5 s apart (${first}, then ${second})`,
        during: `${TARGETS} targets due at once on one server, ${sentAtCut} of them sent`,
        duration: 'two cuts, 1.5 s apart',
        meanwhile,
        recoverySec,
        targets: verdict.targets,
        lost: verdict.lost,
        duplicated: verdict.duplicated,
        database: 'postgres',
        note:
          `Recovery counted from the second cut. ${verdict.published} published once, ${verdict.unconfirmed} failed ` +
          `\`unconfirmed\`.${SAMPLE_NOTE}`,
      })
      const api = answers.filter((a) => a.what !== 'GET /health')
      expect(api.filter((a) => a.status === 0 || a.status === 500)).toEqual([])
      for (const a of api.filter((x) => x.status === 503)) expect(a.retryAfterSec).toBe(Number(a.retryAfter))
      expect(burst.server.exited, 'the server exited').toBe(false)
      expect(verdict.targets).toBe(TARGETS)
      expect(verdict.lost).toBe(0)
      expect(verdict.duplicated).toBe(0)
      expect(recoverySec, `settled within ${SETTLE_LIMIT_SEC} s`).not.toBeNull()
      expect(recoverySec!).toBeLessThanOrEqual(SETTLE_LIMIT_SEC)
    } finally {
      await burst.close()
    }
  })
})
