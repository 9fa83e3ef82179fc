/**
 * What networks/http.ts makes of a network answering garbage, over real HTTP to a loopback server:
 * a success that cannot be read (an HTML page, half a JSON) is `unconfirmed` with words after a
 * call that may have acted and transient after a read; a success without the id is `unconfirmed`,
 * in the network's own words when it carries an error object; a redirect loop ends at the hop limit
 * even with private addresses allowed; a deadline cap on the fetch bounds every call.
 */
import { describe, expect, it } from 'vitest'
import {
  asFailedResult,
  createdId,
  errorWords,
  NetworkFailure,
  request,
  UnconfirmedAnswer,
  withDeadlineCap,
} from '../../src/networks/http'
import { guardedFetch, MAX_REDIRECTS } from '../../src/networks/outbound'
import { startFakeServer } from '../fakes/fake-server'

const NET = 'EXAMPLE_NET'
const PAGE = '<!DOCTYPE html><html><body>Sign in</body></html>'

async function failureOf(answer: Promise<unknown>): Promise<NetworkFailure> {
  const err = await answer.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(NetworkFailure)
  return err as NetworkFailure
}

describe('http.ts on garbage', () => {
  it('reads an unreadable success as unconfirmed after a POST (to be asked about) and transient after a GET', async () => {
    const server = await startFakeServer([
      ['POST', '/html', () => ({ status: 200, headers: { 'content-type': 'text/html' }, body: PAGE })],
      ['POST', '/half', () => ({ status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"12' })],
      ['GET', '/html', () => ({ status: 200, headers: { 'content-type': 'text/html' }, body: PAGE })],
    ])
    const html = await request(fetch, NET, `${server.url}/html`, { json: { text: 'hi' } })
    const htmlFailure = await failureOf(Promise.resolve().then(() => html.body))
    expect(htmlFailure).toBeInstanceOf(UnconfirmedAnswer)
    expect(htmlFailure.kind).toBe('unconfirmed')
    expect(htmlFailure.message).toBe(
      `${NET} answered with a web page (HTML) instead of JSON, as a gateway or sign-in page does, so whether it acted is unknown.`,
    )
    expect(asFailedResult(htmlFailure)).toMatchObject({ status: 'failed', kind: 'unconfirmed', reconcile: true })

    const half = await request(fetch, NET, `${server.url}/half`, { json: { text: 'hi' } })
    const halfFailure = await failureOf(Promise.resolve().then(() => half.body))
    expect(halfFailure.message).toBe(
      `${NET} sent an answer that is not JSON (cut off or garbled), so whether it acted is unknown.`,
    )

    const read = await request(fetch, NET, `${server.url}/html`)
    const readFailure = await failureOf(Promise.resolve().then(() => read.body))
    expect(readFailure.kind).toBe('transient')
    expect(asFailedResult(readFailure)).not.toHaveProperty('reconcile')
  })

  it('takes a created id only when there is one, in the network words of an error object sent with 200', () => {
    expect(createdId('42', NET, {})).toBe('42')
    expect(createdId(42, NET, {})).toBe('42')
    const styles: Array<[unknown, string]> = [
      [{ error: { message: 'An unknown error occurred', code: 1 } }, 'An unknown error occurred'],
      [
        { error: 'InternalServerError', message: 'Internal Server Error' },
        'InternalServerError: Internal Server Error',
      ],
      [{ errors: [{ message: 'Internal error', code: 131 }] }, 'Internal error'],
      [{ ok: false, error_code: 500, description: 'Internal Server Error' }, 'Internal Server Error'],
      [{ code: 1, message: 'Something went wrong' }, 'Something went wrong'],
    ]
    for (const [body, words] of styles) {
      expect(errorWords(body)).toBe(words)
      expect(() => createdId((body as any).id, NET, body, 'pin')).toThrow(
        `${NET} answered success carrying an error ("${words}") and no pin id, so whether it acted is unknown.`,
      )
    }
    expect(() => createdId(undefined, NET, { data: {} })).toThrow(
      `${NET} answered success without the post id, so whether it acted is unknown.`,
    )
    expect(() => createdId('', NET, null)).toThrow(UnconfirmedAnswer)
  })

  it('ends a redirect loop at the hop limit in words, even with private addresses allowed', async () => {
    let hops = 0
    const loop = () => {
      hops++
      return { status: 302, headers: { location: '/loop' }, body: 'Found' }
    }
    const server = await startFakeServer([
      ['POST', '/loop', loop],
      ['GET', '/loop', loop],
    ])
    const guarded = guardedFetch(fetch, { allowPrivate: true })
    const failure = await failureOf(request(guarded, NET, `${server.url}/loop`, { json: {} }))
    expect(failure.kind).toBe('rejected')
    expect(failure.message).toBe(`${NET}: The address 127.0.0.1 redirected more than ${MAX_REDIRECTS} times.`)
    expect(hops).toBe(MAX_REDIRECTS + 1)
  })

  it('bounds every call by the deadline cap its fetch carries, and says the deadline', async () => {
    const server = await startFakeServer([['POST', '/slow', () => new Promise(() => undefined)]])
    const capped = withDeadlineCap(fetch, 200)
    const started = Date.now()
    const failure = await failureOf(request(capped, NET, `${server.url}/slow`, { json: {}, timeoutMs: 120_000 }))
    expect(Date.now() - started).toBeLessThan(5000)
    expect(failure).toMatchObject({ kind: 'transient', message: `${NET} did not answer within 0.2 s.` })
  })
})
