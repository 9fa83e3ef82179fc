/**
 * What a post says: the one description of its content fields. The request schemas of create and
 * edit, the post record the API answers with, the stored columns, the validator's input and the
 * empty value all derive from `POST_CONTENT_FIELDS`, so a new field is added here once.
 */
import { z } from 'zod'
import type { PostType } from './vocabulary'
import { PLATFORM_IDS } from './vocabulary'

export const RECURRENCE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const

/** The years a post's times may fall in: what the database stores and a schedule can mean. */
export const INSTANT_YEARS = { min: 1970, max: 9999 } as const

/** An ISO 8601 instant with a time zone offset or Z, within `INSTANT_YEARS`. */
export const IsoInstantSchema = z.iso.datetime({ offset: true }).refine((value) => {
  const year = new Date(value).getUTCFullYear()
  return year >= INSTANT_YEARS.min && year <= INSTANT_YEARS.max
}, `must be a time between the years ${INSTANT_YEARS.min} and ${INSTANT_YEARS.max}`)

const isoDateTime = IsoInstantSchema.meta({
  description: 'ISO 8601 with a time zone offset or Z.',
  example: '2026-12-01T09:30:00Z',
})

export const RecurrenceSchema = z
  .object({
    frequency: z.enum(RECURRENCE_FREQUENCIES),
    interval: z.number().int().min(1).max(365).default(1),
    endsAt: isoDateTime.nullable().default(null),
    count: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .nullable()
      .default(null)
      .meta({ description: 'Occurrences in all, this one included.' }),
  })
  .meta({
    id: 'Recurrence',
    description:
      'Makes the post evergreen: when an occurrence publishes, the next is created as a new SCHEDULED post with ' +
      'the same content at the same local time in the workspace zone, until `count` occurrences or `endsAt`.',
  })
export type Recurrence = z.output<typeof RecurrenceSchema>

/** The stored series: what the caller set, plus which occurrence a post is and the first one's time. */
export interface StoredRecurrence extends Recurrence {
  occurrence?: number
  anchor?: string
}

export const VideoNetOptionsSchema = z
  .object({
    privacyLevel: z.string().optional().meta({
      description:
        'PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR or SELF_ONLY (must be one the creator allows).',
    }),
    disableComment: z.boolean().optional(),
    disableDuet: z.boolean().optional(),
    disableStitch: z.boolean().optional(),
    brandContentToggle: z.boolean().optional(),
    brandOrganicToggle: z.boolean().optional(),
  })
  .meta({ id: 'VideoNetOptions' })
export type VideoNetAccountOptions = z.output<typeof VideoNetOptionsSchema>

export const AudioSchema = z
  .object({
    audioId: z.string().min(1).meta({ 'x-id-of': 'network' }),
    audioVolume: z.number().min(0).max(1).optional(),
    videoVolume: z.number().min(0).max(1).optional(),
  })
  .meta({ id: 'Audio' })

export const PinboardNetOptionsSchema = z.object({ title: z.string().nullable().optional() })

/** One value of `targetOptions.<accountId>`: its type is the one the option field names. */
export const TargetOptionValueSchema = z
  .union([z.string().max(100_000), z.number(), z.boolean(), z.array(z.string().max(10_000)).max(1000)])
  .meta({
    id: 'TargetOptionValue',
    description: 'A string, a number, a boolean or a list of strings, as the field says.',
  })
export type TargetOptionValue = z.output<typeof TargetOptionValueSchema>

/** Every content field, each nullable: `null` means unset (and clears the field on edit). */
export const POST_CONTENT_FIELDS = {
  caption: z
    .string()
    .max(100_000)
    .nullable()
    .meta({ description: 'Base caption, used by every platform without an override.' }),
  captionOverrides: z
    .partialRecord(z.enum(PLATFORM_IDS), z.string().max(100_000))
    .nullable()
    .meta({ description: 'Caption per platform id; a platform without an entry publishes `caption`.' }),
  threadParts: z.array(z.string().max(100_000)).max(1000).nullable().meta({
    description:
      'Follow-ups, in order, on platforms with a thread model. Over a platform cap is rejected, never truncated.',
  }),
  firstComment: z
    .string()
    .max(100_000)
    .nullable()
    .meta({ description: 'Photo network only, never on a story; null clears it on edit.' }),
  replyToMicropostId: z
    .string()
    .max(2048)
    .nullable()
    .meta({ description: 'Microblog network: reply under this post (id or URL).', 'x-id-of': 'network' }),
  quoteMicropostId: z
    .string()
    .max(2048)
    .nullable()
    .meta({ description: 'Microblog network: quote this post (id or URL).', 'x-id-of': 'network' }),
  videoNetOptions: z.record(z.string(), VideoNetOptionsSchema).nullable().meta({
    description: 'Per short-video account id; a short-video target without options publishes SELF_ONLY.',
    'x-key-id-of': 'account',
  }),
  audio: AudioSchema.nullable(),
  pinboardNetBoards: z
    .record(z.string(), z.string().min(1).meta({ 'x-id-of': 'board' }))
    .nullable()
    .meta({
      'x-key-id-of': 'account',
      description:
        'Board id per pinboard account (GET /v1/accounts/{id}/boards). A draft saves without it; ' +
        'a target without one fails at publish time.',
    }),
  pinboardNetOptions: PinboardNetOptionsSchema.nullable().meta({
    description: "`title` at most 100 characters; unset: the caption's first line.",
  }),
  linkUrl: z.string().max(2048).nullable().meta({
    description:
      'http(s) URL: a link card on the page network, the pin destination on the pinboard network; ignored elsewhere.',
  }),
  title: z.string().max(10_000).nullable().meta({
    description:
      'Title, on networks whose rules have `title.field` = `title` (GET /v1/platforms); unset: derived as `title.derivedFrom` says. Ignored elsewhere.',
  }),
  destinations: z
    .record(z.string(), z.string().min(1).max(512).meta({ 'x-id-of': 'network' }))
    .nullable()
    .meta({
      'x-key-id-of': 'account',
      description:
        'Destination id per account (GET /v1/accounts/{id}/destinations), for networks whose rules have `options.destination`. ' +
        'A draft saves without one; a required destination missing refuses schedule and publish now.',
    }),
  targetOptions: z
    .record(z.string(), z.record(z.string(), TargetOptionValueSchema))
    .nullable()
    .meta({
      'x-key-id-of': 'account',
      description:
        "Per-target options per account, checked against the account's platform `options.fields` (GET /v1/platforms): " +
        'an unknown key, a wrong type, a value not listed, too long or too many is refused (`invalid_option` at `targetOptions.<accountId>.<key>`).',
    }),
  recurrence: RecurrenceSchema.nullable(),
}

export type ContentFieldName = keyof typeof POST_CONTENT_FIELDS
export const CONTENT_FIELD_NAMES = Object.keys(POST_CONTENT_FIELDS) as ContentFieldName[]

/** The content fields as stored and validated: every field present, `null` where unset. */
export type ContentFields = { [K in ContentFieldName]: z.output<(typeof POST_CONTENT_FIELDS)[K]> }

/** A body's content fields: on create an absent field is unset; on edit it keeps its value and `null` clears it. */
export type ContentFieldsInput = Partial<ContentFields>

/** A post's whole content: its format, its media in order, and the fields above. */
export interface PostContent extends ContentFields {
  type: PostType
  mediaIds: string[]
}

export const EMPTY_CONTENT_FIELDS = Object.fromEntries(CONTENT_FIELD_NAMES.map((k) => [k, null])) as ContentFields

/** Applies an edit: a field absent from the input keeps its value, `null` clears it. */
export function mergeContent(
  base: PostContent,
  input: ContentFieldsInput & { type?: PostType; mediaIds?: string[] },
): PostContent {
  const next: PostContent = { ...base }
  if (input.type !== undefined) next.type = input.type
  if (input.mediaIds !== undefined) next.mediaIds = input.mediaIds
  for (const key of CONTENT_FIELD_NAMES) {
    const value = input[key]
    if (value !== undefined) Object.assign(next, { [key]: value })
  }
  return next
}
