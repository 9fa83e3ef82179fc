/**
 * What the local business network's fake refuses in a `LocalPost` it is asked to create, from the
 * LocalPost reference: `topicType` required; EVENT and OFFER need an event with a title and a
 * schedule holding all four of its fields; an offer only on OFFER posts; an ALERT needs the
 * COVID_19 alert type and takes no photo; a button's type from the documented enum, with a URL
 * except for CALL; `sourceUrl` the only media field. The summary cap is the help center's 1,500.
 * Each refusal is Google's error body with a `ValidationError` detail naming the field.
 */
import type { FakeReply } from './fake-server'

export const googleError = (
  code: number,
  status: string,
  message: string,
  fieldErrors: Array<{ field: string; message: string }> = [],
): FakeReply => ({
  status: code,
  json: {
    error: {
      code,
      message,
      status,
      ...(fieldErrors.length > 0
        ? {
            details: [
              {
                '@type': 'type.googleapis.com/google.mybusiness.v4.ValidationError',
                errorDetails: fieldErrors.map((e) => ({ code: 3, ...e })),
              },
            ],
          }
        : {}),
    },
  },
})

const invalid = (field: string, message: string) =>
  googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.', [{ field, message }])

const TOPICS = ['STANDARD', 'EVENT', 'OFFER', 'ALERT']
const ACTIONS = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL']
const SUMMARY_MAX = 1500

const isDate = (d: any) =>
  Number.isInteger(d?.year) && Number.isInteger(d?.month) && Number.isInteger(d?.day) && d.month >= 1 && d.day >= 1
const isTime = (t: any) => Number.isInteger(t?.hours) && Number.isInteger(t?.minutes) && t.hours <= 23

/** The refusal for `body`, or null when the network takes it. */
export function localPostRefusal(body: any): FakeReply | null {
  if (!TOPICS.includes(body.topicType)) return invalid('topic_type', 'A topic type is required.')
  if (typeof body.summary === 'string' && [...body.summary].length > SUMMARY_MAX)
    return invalid('summary', `Summary exceeds ${SUMMARY_MAX} characters.`)
  if (body.topicType === 'EVENT' || body.topicType === 'OFFER') {
    const event = body.event
    if (!event?.title) return invalid('event.title', 'An event title is required.')
    const s = event.schedule
    if (!isDate(s?.startDate) || !isDate(s?.endDate) || !isTime(s?.startTime) || !isTime(s?.endTime))
      return invalid('event.schedule', 'The schedule must contain all fields.')
  }
  if (body.offer !== undefined && body.topicType !== 'OFFER')
    return invalid('offer', 'Offer may only be set on OFFER posts.')
  if (body.topicType === 'ALERT') {
    if (body.alertType !== 'COVID_19') return invalid('alert_type', 'An alert type is required.')
    if (body.media?.length) return invalid('media', 'Alert posts support a summary and a call to action only.')
  }
  const cta = body.callToAction
  if (cta !== undefined) {
    if (!ACTIONS.includes(cta.actionType)) return invalid('call_to_action.action_type', 'Invalid action type.')
    if (cta.actionType !== 'CALL' && !cta.url) return invalid('call_to_action.url', 'A URL is required.')
  }
  for (const m of body.media ?? []) {
    const extra = Object.keys(m).filter((k) => k !== 'sourceUrl' && k !== 'mediaFormat')
    if (typeof m.sourceUrl !== 'string' || extra.length > 0)
      return invalid('media', 'sourceUrl is the only supported data field for a LocalPost MediaItem.')
  }
  return null
}

/** A photo the network can use: JPEG or PNG bytes. */
export const isPhoto = (b: Buffer) =>
  (b[0] === 0xff && b[1] === 0xd8) || b.subarray(0, 4).toString('latin1') === '\x89PNG'
