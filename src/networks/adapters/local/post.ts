/**
 * A target's content as the network's `LocalPost`: the caption as its summary, the topic and its
 * parts from the target's options (planned and checked by domain/rules/local-network-checks.ts),
 * and one photo the network fetches itself from `sourceUrl` (the only media field a local post
 * takes), so the photo's URL must be reachable from the internet. An ALERT is a COVID-19 alert,
 * the one `alertType` the reference documents.
 * https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts
 */
import type { LocalMoment, OptionValues } from '../../../domain/rules/local-network-checks'
import { planLocalPost } from '../../../domain/rules/local-network-checks'
import type { TargetContent } from '../../adapter'
import { NetworkFailure } from '../../http'
import { NETWORK } from './api'

/** The one alert sub-type the network documents. */
export const ALERT_TYPE = 'COVID_19'

const schedule = (start: LocalMoment, end: LocalMoment) => ({
  startDate: start.date,
  startTime: start.time,
  endDate: end.date,
  endTime: end.time,
})

/** Only the entries that hold a value. */
const present = (entries: Record<string, string | null>) =>
  Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== null))

/** The `LocalPost` to create for this content, or a refusal naming every option to fix. */
export function localPostBody(content: TargetContent): Record<string, unknown> {
  if (content.media.some((m) => m.type !== 'IMAGE'))
    throw new NetworkFailure('rejected', `${NETWORK}: a local post takes one photo, no video.`)
  if (content.media.length > 1)
    throw new NetworkFailure(
      'rejected',
      `${NETWORK}: a local post takes one photo (this one has ${content.media.length}).`,
    )
  const photo = content.media[0]
  const options = (content.targetOptions ?? {}) as OptionValues
  const planned = planLocalPost(options, { text: content.text, photos: photo ? 1 : 0 })
  if (!planned.ok) throw new NetworkFailure('rejected', `${NETWORK}: ${planned.problems.join(' ')}`)
  const { topicType, callToAction, event, offer } = planned.plan
  return {
    ...(content.text.trim() !== '' ? { summary: content.text } : {}),
    topicType,
    ...(topicType === 'ALERT' ? { alertType: ALERT_TYPE } : {}),
    ...(callToAction
      ? {
          callToAction: { actionType: callToAction.actionType, ...(callToAction.url ? { url: callToAction.url } : {}) },
        }
      : {}),
    ...(event ? { event: { title: event.title, schedule: schedule(event.start, event.end) } } : {}),
    ...(offer
      ? {
          offer: present({
            couponCode: offer.couponCode,
            redeemOnlineUrl: offer.redeemOnlineUrl,
            termsConditions: offer.termsConditions,
          }),
        }
      : {}),
    ...(photo ? { media: [{ mediaFormat: 'PHOTO', sourceUrl: photo.url }] } : {}),
  }
}

/** Whether a post the network lists is the one `body` describes (same summary, topic and event title). */
export function sameLocalPost(listed: Record<string, any>, body: Record<string, any>): boolean {
  return (
    (listed.summary ?? '') === (body.summary ?? '') &&
    listed.topicType === body.topicType &&
    (listed.event?.title ?? null) === (body.event?.title ?? null)
  )
}
