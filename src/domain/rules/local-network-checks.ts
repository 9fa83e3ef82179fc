/**
 * How the local business network's per-target options depend on each other, which the rules'
 * `fields` (one value each) cannot say: an EVENT or OFFER post needs its title and schedule; offer
 * fields belong to OFFER posts; every button but CALL needs a link, and CALL takes none; an OFFER
 * has no button (the network ignores it); an ALERT carries only text and a button. The publisher
 * refuses a post breaking one in these words; `planLocalPost` turns the options into the post's
 * parts once they hold. From the LocalPost reference:
 * https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts
 */
import { LOCAL_CALL_TO_ACTIONS, LOCAL_TOPIC_TYPES } from './local-network'

export type LocalTopicType = (typeof LOCAL_TOPIC_TYPES)[number]
export type LocalCallToAction = (typeof LOCAL_CALL_TO_ACTIONS)[number]
export type OptionValues = Record<string, string | number | boolean | string[]>

/** A wall-clock moment as the network takes it (`google.type.Date` and `TimeOfDay`, no zone). */
export interface LocalMoment {
  date: { year: number; month: number; day: number }
  time: { hours: number; minutes: number; seconds: number; nanos: number }
}

export interface LocalPostPlan {
  topicType: LocalTopicType
  callToAction: { actionType: LocalCallToAction; url: string | null } | null
  event: { title: string; start: LocalMoment; end: LocalMoment } | null
  offer: { couponCode: string | null; redeemOnlineUrl: string | null; termsConditions: string | null } | null
}

const EVENT_KEYS = ['eventTitle', 'eventStart', 'eventEnd'] as const
const OFFER_KEYS = ['offerCouponCode', 'offerRedeemUrl', 'offerTerms'] as const
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i

const textOf = (values: OptionValues, key: string): string | null => {
  const v = values[key]
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null
}

/** The date and time as written in an ISO 8601 instant (its offset dropped: the business's local time). */
export function wallClock(iso: string): LocalMoment | null {
  const m = WALL_CLOCK.exec(iso.trim())
  if (!m) return null
  const [year, month, day, hours, minutes, seconds] = m.slice(1, 7).map((n) => Number(n ?? 0)) as number[]
  const check = new Date(Date.UTC(year!, month! - 1, day!))
  if (check.getUTCMonth() !== month! - 1 || check.getUTCDate() !== day! || hours! > 23 || minutes! > 59) return null
  return {
    date: { year: year!, month: month!, day: day! },
    time: { hours: hours!, minutes: minutes!, seconds: Math.min(seconds!, 59), nanos: 0 },
  }
}

const order = (m: LocalMoment) =>
  [m.date.year, m.date.month, m.date.day, m.time.hours, m.time.minutes, m.time.seconds].reduce(
    (acc, n, i) => acc * (i < 3 ? 100 : 60) + n,
    0,
  )

/** The event of an EVENT or OFFER post, or why there is none. */
function eventOf(values: OptionValues, topic: LocalTopicType, problems: string[]): LocalPostPlan['event'] {
  const given = EVENT_KEYS.filter((k) => textOf(values, k) !== null)
  if (topic !== 'EVENT' && topic !== 'OFFER') {
    if (given.length > 0) problems.push(`${given.join(', ')}: only EVENT and OFFER posts carry an event.`)
    return null
  }
  const missing = EVENT_KEYS.filter((k) => textOf(values, k) === null)
  if (missing.length > 0) {
    problems.push(`A ${topic} post needs eventTitle, eventStart and eventEnd (missing: ${missing.join(', ')}).`)
    return null
  }
  const start = wallClock(textOf(values, 'eventStart')!)
  const end = wallClock(textOf(values, 'eventEnd')!)
  if (!start || !end) {
    problems.push('eventStart and eventEnd must be ISO 8601 date-times with an offset (2026-12-24T18:00:00+01:00).')
    return null
  }
  if (order(end) < order(start)) {
    problems.push('eventEnd is before eventStart.')
    return null
  }
  return { title: textOf(values, 'eventTitle')!, start, end }
}

function offerOf(values: OptionValues, topic: LocalTopicType, problems: string[]): LocalPostPlan['offer'] {
  const given = OFFER_KEYS.filter((k) => textOf(values, k) !== null)
  if (topic !== 'OFFER') {
    if (given.length > 0) problems.push(`${given.join(', ')}: only OFFER posts carry an offer.`)
    return null
  }
  return {
    couponCode: textOf(values, 'offerCouponCode'),
    redeemOnlineUrl: textOf(values, 'offerRedeemUrl'),
    termsConditions: textOf(values, 'offerTerms'),
  }
}

function callToActionOf(
  values: OptionValues,
  topic: LocalTopicType,
  problems: string[],
): LocalPostPlan['callToAction'] {
  const action = textOf(values, 'callToAction')
  const url = textOf(values, 'callToActionUrl')
  if (action === null) {
    if (url !== null) problems.push('callToActionUrl needs a callToAction button.')
    return null
  }
  if (!(LOCAL_CALL_TO_ACTIONS as readonly string[]).includes(action)) {
    problems.push(`callToAction must be one of ${LOCAL_CALL_TO_ACTIONS.join(', ')}.`)
    return null
  }
  if (topic === 'OFFER') {
    problems.push('An OFFER post has no button (the network ignores it): use offerRedeemUrl.')
    return null
  }
  if (action === 'CALL' && url !== null)
    problems.push('A CALL button dials the business phone: leave callToActionUrl out.')
  if (action !== 'CALL' && url === null) problems.push(`A ${action} button needs callToActionUrl.`)
  return { actionType: action as LocalCallToAction, url: action === 'CALL' ? null : url }
}

/** The post's parts from its options, or every reason the network would refuse them. */
export function planLocalPost(
  values: OptionValues,
  content: { text: string; photos: number },
): { ok: true; plan: LocalPostPlan } | { ok: false; problems: string[] } {
  const problems: string[] = []
  const topicValue = textOf(values, 'topicType') ?? 'STANDARD'
  if (!(LOCAL_TOPIC_TYPES as readonly string[]).includes(topicValue))
    return { ok: false, problems: [`topicType must be one of ${LOCAL_TOPIC_TYPES.join(', ')}.`] }
  const topicType = topicValue as LocalTopicType
  const event = eventOf(values, topicType, problems)
  const offer = offerOf(values, topicType, problems)
  const callToAction = callToActionOf(values, topicType, problems)
  const text = content.text.trim()
  if (topicType === 'ALERT' && content.photos > 0)
    problems.push('An ALERT post carries text and a button only: no photo.')
  if (topicType === 'ALERT' && text === '') problems.push('An ALERT post needs its text (the caption).')
  if (topicType === 'STANDARD' && text === '' && content.photos === 0)
    problems.push('A STANDARD post needs a caption or a photo.')
  return problems.length > 0 ? { ok: false, problems } : { ok: true, plan: { topicType, callToAction, event, offer } }
}
