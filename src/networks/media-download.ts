/** Reading our own media's bytes from storage, for the networks that take uploads. */
import type { PublishMedia } from './adapter'
import { deadlineOf, MEDIA_ANSWER_TIMEOUT_MS, MEDIA_TIMEOUT_MS } from './http-deadlines'
import { NetworkFailure } from './network-failure'
import { OutboundRefused } from './outbound'

/**
 * The bytes of one of our media assets, for networks that take uploads (the asset's public URL
 * on our own storage). A missing object is not worth retrying; anything else is transient.
 */
export async function downloadMedia(fetchImpl: typeof fetch, media: PublishMedia): Promise<Uint8Array> {
  let response: Response
  const answer = new AbortController()
  const stalled = setTimeout(() => answer.abort(), MEDIA_ANSWER_TIMEOUT_MS)
  try {
    const signal = AbortSignal.any([AbortSignal.timeout(deadlineOf(fetchImpl, MEDIA_TIMEOUT_MS)), answer.signal])
    response = await fetchImpl(media.url, { signal }).finally(() => clearTimeout(stalled))
    if (response.status === 404 || response.status === 403) {
      throw new NetworkFailure('rejected', `Media ${media.id} is no longer in storage: upload it again.`)
    }
    if (!response.ok)
      throw new NetworkFailure(
        'transient',
        `Media ${media.id} could not be read from storage (HTTP ${response.status}).`,
      )
    return new Uint8Array(await response.arrayBuffer())
  } catch (err) {
    if (err instanceof NetworkFailure) throw err
    if (err instanceof OutboundRefused) throw new NetworkFailure('rejected', `Media ${media.id}: ${err.message}`)
    const why = answer.signal.aborted ? `: the store did not answer within ${MEDIA_ANSWER_TIMEOUT_MS / 1000} s` : ''
    throw new NetworkFailure('transient', `Media ${media.id} could not be read from storage${why}.`)
  }
}
