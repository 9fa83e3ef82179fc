/**
 * The tenant matrix: for every operation of the OpenAPI document and every place in it that carries
 * an id (derived from the schemas: support/openapi-operations.ts), workspace A sends each id of
 * workspace B's resources of that kind. The answer must refuse it as it refuses an id never issued
 * (404, or the documented 422 naming the id; a query filter or a header key may answer 200, but
 * exactly as for a never-issued value), leak nothing of B, and leave B as it was. An operation
 * without an id place is still called by A and scanned. Every request and log line goes through the
 * shared leak watch. The same request with A's own id (the control) must not be refused as unknown,
 * so each case is known to reach the check it tests. TENANT_MATRIX_TRACE=1 prints every case's answers.
 *
 * An id place is found from the schema: `x-id-of` (a value), `x-key-id-of` (a record's keys), a name in
 * `Id`/`Ids` (`-key` for a header), a path parameter's example prefix, or ids written in a body example
 * (the bulk CSV). `x-id-of: network` marks ids on a network (not a workspace resource): counted, not sent.
 */
import { describe, expect, it } from 'vitest'
import { OPENAPI_PATH } from '../../src/app'
import { testDatabase } from '../support/database'
import {
  type IdPlace,
  idPlacesOf,
  type OpenApiDoc,
  type Operation,
  operationsOf,
  pathParamsOf,
  placeName,
  requestFor,
} from './support/openapi-operations'
import { snapshot } from './support/fuzz-workspace'
import { createLeakWatch } from './support/leaks'
import { type Answer, createTenantWorkspace, neverIssued, stable, stringsOf, viewOf } from './support/tenant-fixtures'

/** The codes an id outside the workspace may be refused with (docs/decisions.md, "Workspace isolation"). */
const REFUSALS = ['not_found', 'account_not_found', 'media_not_found', 'label_not_found', 'invalid_option']
const NOT_FOUND = ['not_found', 'account_not_found', 'media_not_found', 'label_not_found']
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/
/** The client addresses the test gives each request (the activity log's `ip`): one may be a prefix of another. */
const IP_ADDRESS = /^\d+\.\d+\.\d+\.\d+$/
const TRACE = process.env.TENANT_MATRIX_TRACE === '1'
const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** Every `{ code, … }` an answer carries: its own error, and those of rows (bulk) or entries. */
function errorsOf(json: unknown): Array<Record<string, any>> {
  const out: Array<Record<string, any>> = []
  const walk = (v: unknown, key: string) => {
    if (!v || typeof v !== 'object') return
    if (key === 'error' && typeof (v as any).code === 'string') out.push(v as Record<string, any>)
    // A dry run (POST /v1/posts/validate) answers 200 with its findings as `errors: [{ code, message, path }]`.
    if (key === 'errors' && Array.isArray(v)) {
      for (const e of v) if (e && typeof e === 'object' && typeof e.code === 'string') out.push(e)
    }
    for (const [k, x] of Object.entries(v)) walk(x, k)
  }
  walk(json, '')
  return out
}

const bodyPath = (place: IdPlace) => place.at.filter((s) => s !== '[]' && s !== '*').join('.')

/** The answer refuses the id: 404 `not_found`, or an error (422, or a bulk row's) that names the id or its field. */
function refuses(answer: Answer, place: IdPlace, value: string): boolean {
  return errorsOf(answer.json).some(
    (e) =>
      REFUSALS.includes(e.code) &&
      ((answer.status === 404 && e.code === 'not_found') ||
        JSON.stringify(e).includes(value) ||
        (e.details ?? []).some((d: any) => String(d.path ?? '').startsWith(bodyPath(place)))),
  )
}

/** What an answer says, with the id sent and the request id taken out, for comparison with a never-issued id. */
function gist(op: Operation, answer: Answer, sent: string) {
  const text = answer.text.split(sent).join('<id>')
  let json: unknown = text
  try {
    json = JSON.parse(text)
  } catch {}
  const errors = errorsOf(json)
  if (op.method === 'GET' || answer.status !== 200) return `${answer.status} ${stable(json)}`
  return `${answer.status} ${errors.map((e) => e.code).join(',')}`
}

describe('tenant matrix: another workspace ids, in every id place of every operation', () => {
  it('refuses them like unknown ids, leaks nothing of the other workspace and leaves it unchanged', async () => {
    const logLines: string[] = []
    const watch = createLeakWatch()
    const victim = await createTenantWorkspace('bravo', logLines)
    const attacker = await createTenantWorkspace('alpha', logLines)
    watch.secret(victim.t.token, attacker.t.token)
    const { db } = await testDatabase()

    const docAnswer = await attacker.call('GET', OPENAPI_PATH)
    expect(docAnswer.status).toBe(200)
    const doc = docAnswer.json as OpenApiDoc
    const ops = operationsOf(doc).sort((a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method))
    const kindOfPath = (op: Operation) => pathParamsOf(op)[0]?.kind ?? null

    const victimView = await viewOf(victim, ops, kindOfPath)
    const victimRows = await snapshot(db, victim.t.workspaceId)
    const attackerStrings = stringsOf(await viewOf(attacker, ops, kindOfPath))
    const victimStrings = [...stringsOf(victimView)].filter(
      (s) => s.length >= 6 && !ISO_TIME.test(s) && !IP_ADDRESS.test(s) && !attackerStrings.has(s),
    )
    for (const ids of Object.values(victim.ids)) victimStrings.push(...ids.filter((id) => !attackerStrings.has(id)))

    /** The attacker's own ids for the spots a case does not test; a post is a fresh draft each time. */
    const drafts: string[] = []
    // An operation on one note of one post (`/posts/{id}/notes/{noteId}`) gets a fresh note and its own post.
    const notes: Array<{ postId: string; noteId: string }> = []
    const onNote = (op: Operation) => op.path.includes('{noteId}')
    const send = async (op: Operation, places: IdPlace[], place: IdPlace | null, value: string | null) => {
      while (drafts.length < 3) drafts.push(await attacker.freshDraft())
      const pair = onNote(op) ? (notes.shift() ?? (await attacker.freshNote())) : null
      const host = (kind: string) =>
        pair && (kind === 'post' || kind === 'note')
          ? pair[kind === 'post' ? 'postId' : 'noteId']
          : kind === 'post'
            ? drafts.shift()!
            : (attacker.ids[kind]?.[0] ?? `none-${kind}`)
      const req = requestFor(doc, op, places, host, place, value)
      const answer = await attacker.call(req.method, req.url, { body: req.body, headers: req.headers })
      watch.record(`${op.key} ${req.url}`, answer.text)
      watch.record(`${op.key} headers`, JSON.stringify([...answer.headers]))
      return answer
    }
    const expectNoVictimData = (answer: Answer, where: string, sent: string | null) => {
      const found = victimStrings.filter((s) => s !== sent && !(sent ?? '').includes(s) && answer.text.includes(s))
      expect(found, `${where}: answer holds the victim's data: ${answer.text.slice(0, 400)}`).toEqual([])
    }
    const expectVictimRowsUnchanged = async (where: string) =>
      expect(await snapshot(db, victim.t.workspaceId), `${where}: the victim's rows changed`).toBe(victimRows)

    /** The attacker's own value for the control: a fresh draft, note (and its post) or link, or its i-th id. */
    const ownTwin = async (op: Operation, place: IdPlace, own: string[], i: number) => {
      if (onNote(op) && (place.kind === 'post' || place.kind === 'note')) {
        const pair = await attacker.freshNote()
        notes.unshift(pair)
        return place.kind === 'post' ? pair.postId : pair.noteId
      }
      if (place.kind === 'reviewLink') return attacker.freshReviewLink()
      return place.kind === 'post' ? await attacker.freshDraft() : own[i % own.length]!
    }
    const casesPerOp = new Map<string, number>()
    const pairs = new Map<string, string>()
    const spent = new Set<string>()
    const counts = { places: 0, network: 0, foreign: 0, noId: 0, requests: 0 }
    for (const op of ops) {
      const all = idPlacesOf(doc, op)
      const places = all.filter((p) => p.kind !== 'network')
      counts.places += places.length
      counts.network += all.length - places.length
      casesPerOp.set(op.key, 0)
      if (places.length === 0) {
        // No id place in its schema: A still calls it (minimal valid request) and must see nothing of B.
        const answer = await send(op, all, null, null)
        counts.requests++
        expect(answer.status, `${op.key} (no id place): ${answer.text.slice(0, 300)}`).toBe(200)
        expectNoVictimData(answer, `${op.key} (no id place)`, null)
        await expectVictimRowsUnchanged(op.key)
        casesPerOp.set(op.key, 1)
        counts.noId++
      }
      for (const place of places) {
        const where = `${op.key} ${placeName(place)} (${place.kind})`
        // A header key is remembered per workspace once sent: each of the victim's keys goes to one operation,
        // so every case is the attacker's first use of that key.
        const foreign = (victim.ids[place.kind] ?? [])
          .filter((v) => place.in !== 'header' || !spent.has(v))
          .slice(0, place.in === 'header' ? 2 : undefined)
        expect(foreign.length, `${where}: the fixtures have no (unused) ${place.kind} of the victim`).toBeGreaterThan(0)
        if (place.in === 'header') for (const v of foreign) spent.add(v)
        const own = attacker.ids[place.kind] ?? []
        for (const [i, value] of foreign.entries()) {
          const label = `${where} = ${value}`
          const sent = await send(op, places, place, value)
          // One never-issued twin per value, so both carry the same history on A's side (a header key A sent before).
          const fresh = pairs.get(value) ?? pairs.set(value, neverIssued(value)).get(value)!
          const never = await send(op, places, place, fresh)
          const twin = await ownTwin(op, place, own, i)
          const control = await send(op, places, place, twin)
          counts.requests += 3
          if (TRACE)
            console.log(`${label}: ${sent.status} ${errorsOf(sent.json).map((e) => e.code)} | own ${control.status}`)

          if (place.in === 'path' || place.in === 'body') {
            expect([404, 422, 200], `${label}: status ${sent.text.slice(0, 300)}`).toContain(sent.status)
            expect(refuses(sent, place, value), `${label}: not refused as unknown: ${sent.text.slice(0, 300)}`).toBe(
              true,
            )
          }
          for (const [what, a] of Object.entries({ sent, never, control }))
            expect(a.status, `${label} (${what}): ${a.text.slice(0, 300)}`).toBeLessThan(500)
          expect(sent.headers.get('idempotent-replayed'), `${label}: replayed another's answer`).toBeNull()
          expect(gist(op, sent, value), `${label}: differs from a never-issued ${fresh}`).toBe(gist(op, never, fresh))
          expectNoVictimData(sent, label, value)
          expectNoVictimData(never, `${label} (never issued)`, null)
          expectNoVictimData(control, `${label} (own ${twin})`, null)
          const unknownOwn =
            control.status === 404 ||
            errorsOf(control.json).some((e) => NOT_FOUND.includes(e.code) && JSON.stringify(e).includes(twin))
          expect(unknownOwn, `${label}: control with own ${twin} refused: ${control.text.slice(0, 300)}`).toBe(false)
          await expectVictimRowsUnchanged(label)
          casesPerOp.set(op.key, casesPerOp.get(op.key)! + 1)
          counts.foreign++
        }
      }
      expect(await viewOf(victim, ops, kindOfPath), `${op.key}: the victim's own view changed`).toEqual(victimView)
    }

    for (const op of ops) expect(casesPerOp.get(op.key), `${op.key} has no case`).toBeGreaterThan(0)
    for (const line of logLines) watch.record('log', line)
    expect(watch.leaks()).toEqual([])
    const withIds = ops.filter((op) => casesPerOp.get(op.key)! > 0).length - counts.noId
    const { texts, bytes } = watch.scanned()
    console.log(
      `tenant matrix: ${ops.length} operations (${withIds} with id places, ${counts.noId} without) x ` +
        `${counts.places} id places (+${counts.network} network ids) = ${counts.foreign + counts.noId} cases ` +
        `(${counts.foreign} foreign ids, ${counts.noId} no-id calls); ${counts.requests} requests; ` +
        `leak watch: ${texts} texts, ${bytes} bytes`,
    )
  })
})
