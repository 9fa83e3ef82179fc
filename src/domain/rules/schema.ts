/**
 * The shape of the rules registry. Rules are data, not code: the validator, the publisher and
 * `GET /v1/platforms` read the same object. One `PlatformRules` per platform id; the endpoint
 * serves the whole `RulesRegistry` object, keyed by id.
 *
 * Conventions, shared by every field: sizes are bytes, dimensions are pixels, durations are
 * seconds, aspect ratios are width / height as a decimal (4:5 = 0.8, 1.91:1 = 1.91), and
 * `null` means "the network sets no limit here", never zero. Served text stays free of the
 * networks' brand names, like the rest of the interface.
 */
import { z } from 'zod'
import { CONNECTIONS, PLATFORM_IDS, POST_TYPES } from '../vocabulary'

/** How a network measures text. `weighted` follows twitter-text config v3 (NFC, 280, t.co = 23). */
export const CAPTION_COUNTINGS = [
  'weighted',
  'graphemes',
  'utf16',
  'characters',
  'characters_emoji_bytes',
  'utf8_bytes',
] as const
export const MEDIA_KINDS = ['image', 'video'] as const
/** The image canvases of `POST /v1/media/{id}/variants`. */
export const CANVAS_NAMES = ['feed_portrait', 'feed_square', 'landscape', 'story'] as const
export const POST_METRICS = ['likes', 'comments', 'shares', 'views', 'saves'] as const
export const VIDEO_NET_PRIVACY_LEVELS = [
  'PUBLIC_TO_EVERYONE',
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
] as const
export const LIMITED_ACTIONS = ['posts', 'replies', 'reels', 'media_uploads', 'requests'] as const

const count = z.number().int().nonnegative()
const positive = z.number().int().positive()
const note = z.string().nullable().meta({
  description: 'Where a value comes from or how it applies, when that is not obvious; null when nothing to add.',
})
const pixels = (what: string) => positive.nullable().meta({ description: `${what}, in pixels; null: no limit.` })
const ratio = (what: string) =>
  z
    .number()
    .positive()
    .nullable()
    .meta({ description: `${what} aspect ratio, width / height (4:5 = 0.8); null: no limit.` })
/**
 * `schema | null` for a named component. `.nullable()` would mark the shared component itself
 * nullable in the OpenAPI document, so the union is spelled out.
 */
function orNull<T extends z.ZodType>(schema: T, description: string) {
  return z.union([schema, z.null()]).meta({ description })
}
const seconds = (what: string) =>
  z
    .number()
    .positive()
    .nullable()
    .meta({ description: `${what}, in seconds; null: no limit.` })

export const CaptionCountingSchema = z.enum(CAPTION_COUNTINGS).meta({
  id: 'CaptionCounting',
  description: [
    'How the network counts text against `maxLength`.',
    "`weighted`: text is NFC-normalised; code points in U+0000-U+10FF, U+2000-U+200D, U+2010-U+201F and U+2032-U+2037 count 1, every other code point 2, a whole emoji sequence counts 2, and every URL counts `urlWeight` (the microblog network's published counting configuration, version 3).",
    '`graphemes`: user-perceived characters (extended grapheme clusters, as `Intl.Segmenter` splits them).',
    '`utf16`: UTF-16 code units (JavaScript `string.length`).',
    '`characters`: Unicode code points.',
    '`characters_emoji_bytes`: code points, except that each emoji counts as many as its UTF-8 bytes (a ZWJ sequence as a whole).',
    '`utf8_bytes`: bytes of the UTF-8 encoding.',
  ].join(' '),
})
export const MediaKindSchema = z.enum(MEDIA_KINDS).meta({ id: 'MediaKind' })
export const CanvasNameSchema = z.enum(CANVAS_NAMES).meta({ id: 'CanvasName' })
export const PostTypeSchema = z.enum(POST_TYPES)

/** A budget for one piece of text: a caption, a thread part, a title. */
export const TextBudgetSchema = z
  .object({
    maxLength: positive.meta({ description: 'Most units allowed, counted as `counting` says.' }),
    counting: CaptionCountingSchema,
    urlWeight: positive.nullable().meta({
      description: 'Every URL counts exactly this many units whatever its length; null: URLs count like other text.',
    }),
    maxBytes: positive.nullable().meta({ description: 'A second cap on the UTF-8 byte length; null: none.' }),
    normalization: z
      .enum(['NFC'])
      .nullable()
      .meta({ description: 'Unicode normalisation applied before counting; null: counted as sent.' }),
    mentionDomainFree: z
      .boolean()
      .meta({ description: 'True when a `@user@domain` mention counts only its `@user` part.' }),
    forbiddenCharacters: z
      .array(z.string())
      .meta({ description: 'Characters the network refuses in this text.', example: ['<', '>'] }),
  })
  .meta({ id: 'TextBudget' })

export const CaptionRulesSchema = TextBudgetSchema.extend({
  maxLengthWithImages: positive
    .nullable()
    .meta({ description: 'Budget when the post carries images (and no video); null: `maxLength`.' }),
  maxLengthWithVideo: positive
    .nullable()
    .meta({ description: 'Budget when the post carries a video; null: `maxLength`.' }),
  maxHashtags: count.nullable().meta({ description: 'Most hashtags in one caption; null: no limit.' }),
  maxMentions: count.nullable().meta({ description: 'Most @mentions in one caption; null: no limit.' }),
  note,
}).meta({
  id: 'CaptionRules',
  description:
    "The caption budget: `caption`, or the platform's entry in `captionOverrides`. Over the budget is rejected (`caption_too_long`), never truncated.",
})

export const TitleRulesSchema = TextBudgetSchema.extend({
  required: z.boolean().meta({ description: 'The network needs a non-empty title.' }),
  field: z.enum(['pinboardNetOptions.title']).nullable().meta({
    description:
      'Body field that sets the title explicitly (over the budget: `pin_title_too_long`); null: always derived.',
  }),
  derivedFrom: z
    .enum(['caption_first_line'])
    .meta({ description: 'Where the title comes from when no field sets it: the first line of the caption.' }),
  derivedOverflow: z
    .enum(['shorten'])
    .meta({ description: 'A derived title over the budget is shortened at the last whole word that fits.' }),
  media: orNull(MediaKindSchema, 'The title exists only for posts carrying this kind of media; null: every post.'),
  note,
}).meta({ id: 'TitleRules', description: 'A title the network publishes beside the caption.' })

export const ThreadRulesSchema = z
  .object({
    maxParts: positive.meta({
      description:
        'Most entries in `threadParts` (follow-ups after the head post). More is rejected (`thread_too_long`), never truncated.',
    }),
    part: TextBudgetSchema.meta({ description: 'Budget of each follow-up; parts are text only.' }),
    note,
  })
  .meta({ id: 'ThreadRules' })

export const ImageRulesSchema = z
  .object({
    mimeTypes: z.array(z.string()).meta({
      description: 'Accepted MIME types; an entry `type/*` accepts the whole type.',
      example: ['image/jpeg', 'image/png'],
    }),
    maxSizeBytes: positive.nullable().meta({ description: 'Largest file, in bytes; null: no network limit.' }),
    maxSizeBytesByMimeType: z.record(z.string(), positive).meta({
      description: 'Size caps that replace `maxSizeBytes` for particular MIME types.',
      example: { 'image/gif': 15000000 },
    }),
    minWidth: pixels('Narrowest width'),
    maxWidth: pixels('Widest width'),
    minHeight: pixels('Lowest height'),
    maxHeight: pixels('Highest height'),
    maxPixels: positive.nullable().meta({ description: 'Largest width x height; null: no limit.' }),
    maxWidthPlusHeight: positive.nullable().meta({ description: 'Largest width + height; null: no limit.' }),
    minAspectRatio: ratio('Narrowest'),
    maxAspectRatio: ratio('Widest'),
    maxItems: positive.meta({ description: 'Most media of this kind in one post.' }),
    note,
  })
  .meta({ id: 'ImageRules' })

export const VideoRulesSchema = ImageRulesSchema.extend({
  minDurationSec: seconds('Shortest video'),
  maxDurationSec: seconds('Longest video'),
}).meta({ id: 'VideoRules' })

export const MediaRulesSchema = z
  .object({
    allowsTextOnly: z.boolean().meta({
      description:
        'A post may carry no media (`mediaIds: []`). When false, media is required once the post is scheduled, queued or published; a draft saves without it.',
    }),
    maxItems: positive.meta({ description: 'Most media items in one post, whatever the format.' }),
    mixing: z.boolean().meta({ description: 'Images and videos may share one post.' }),
    altTextMaxLength: positive
      .nullable()
      .meta({ description: 'Longest alt text the network keeps, in characters; null: not stated.' }),
    image: orNull(ImageRulesSchema, 'Image rules; null: the network takes no images.'),
    video: orNull(VideoRulesSchema, 'Video rules; null: the network takes no video.'),
    note,
  })
  .meta({ id: 'MediaRules' })

export const FormatRulesSchema = z
  .object({
    type: PostTypeSchema.meta({ description: 'A post format this network honours.' }),
    mediaKinds: z.array(MediaKindSchema).meta({ description: 'Kinds of media this format accepts.' }),
    minItems: positive.meta({
      description: 'Fewest media items. Format rules apply only to a post that carries media.',
    }),
    maxItems: positive.meta({ description: "Most media items; each kind's own `maxItems` applies as well." }),
    minImageAspectRatio: ratio("Narrowest image in this format (replaces the image rule's)"),
    maxImageAspectRatio: ratio("Widest image in this format (replaces the image rule's)"),
    minVideoDurationSec: seconds("Shortest video in this format (replaces the video rule's)"),
    maxVideoDurationSec: seconds("Longest video in this format (replaces the video rule's)"),
    sameDimensions: z.boolean().meta({ description: 'Every image in the post must have the same width and height.' }),
    note,
  })
  .meta({ id: 'FormatRules' })

export const RecommendedSpecSchema = z
  .object({
    format: PostTypeSchema,
    canvas: orNull(
      CanvasNameSchema,
      'The variants canvas to produce for this format; null when no canvas matches (the width and height still apply).',
    ),
    width: positive,
    height: positive,
    note,
  })
  .meta({
    id: 'RecommendedSpec',
    description: 'A recommended size; the first entry for a format is the preferred one.',
  })

export const PostOptionsRulesSchema = z
  .object({
    firstComment: z
      .object({
        formats: z.array(PostTypeSchema).meta({ description: 'Formats under which the comment is posted.' }),
        maxLength: positive,
        counting: CaptionCountingSchema,
      })
      .nullable()
      .meta({
        description:
          '`firstComment` is posted right after the post; a comment the network refuses does not fail the post. Null: ignored here.',
      }),
    replyToMicropostId: z.boolean().meta({ description: '`replyToMicropostId` applies (an id or a URL).' }),
    quoteMicropostId: z.boolean().meta({ description: '`quoteMicropostId` applies (an id or a URL).' }),
    videoNetOptions: z
      .object({
        privacyLevels: z.array(z.enum(VIDEO_NET_PRIVACY_LEVELS)),
        defaultPrivacyLevel: z
          .enum(VIDEO_NET_PRIVACY_LEVELS)
          .meta({ description: 'Used when the account has no entry in `videoNetOptions`.' }),
        switches: z.array(z.string()).meta({ description: 'Boolean fields of an entry.' }),
        note,
      })
      .nullable()
      .meta({ description: 'Per-account `videoNetOptions`; null: ignored here.' }),
    audio: z
      .object({
        formats: z.array(PostTypeSchema),
        connections: z
          .array(z.enum(CONNECTIONS))
          .meta({ description: 'Account connections through which `audio` is sent.' }),
      })
      .nullable()
      .meta({ description: '`audio` (`audioId`, `audioVolume`, `videoVolume`); null: ignored here.' }),
    pinboardNetBoards: z
      .object({
        requiredToPublish: z
          .boolean()
          .meta({ description: 'A target without a board fails when it publishes; a draft saves without one.' }),
      })
      .nullable()
      .meta({ description: 'Board id per account; null: ignored here.' }),
    pinboardNetOptions: z
      .object({ titleMaxLength: positive })
      .nullable()
      .meta({ description: '`pinboardNetOptions` (`{ title }`); null: ignored here.' }),
    linkUrl: z
      .object({
        use: z.enum(['link_card', 'destination']).meta({
          description:
            '`link_card`: published as a link preview card; `destination`: where the post leads when opened.',
        }),
        maxLength: positive.nullable(),
      })
      .nullable()
      .meta({ description: 'How `linkUrl` is used; null: ignored here.' }),
  })
  .meta({ id: 'PostOptionsRules', description: 'Which optional post body fields apply on this network.' })

export const InsightsRulesSchema = z
  .object({
    followers: z
      .boolean()
      .meta({ description: 'Follower counts are collected; false: analytics reports null (unknown).' }),
    postMetrics: z
      .array(z.enum(POST_METRICS))
      .meta({ description: 'Per-post metrics collected; a metric not listed is absent from analytics.' }),
    note,
  })
  .meta({ id: 'InsightsRules' })

export const LimitRuleSchema = z
  .object({
    action: z.enum(LIMITED_ACTIONS),
    max: positive,
    windowSec: positive.meta({ description: 'Length of the rolling window, in seconds.' }),
    note,
  })
  .meta({
    id: 'LimitRule',
    description: 'A quota the network applies per account; the publisher honours it by retrying later.',
  })

export const PlatformRulesSchema = z
  .object({
    platform: z.enum(PLATFORM_IDS),
    name: z.string().meta({ description: 'What kind of network this is.', example: 'microblog network' }),
    connections: z
      .array(z.enum(CONNECTIONS))
      .meta({ description: 'Ways an account of this platform can be connected.' }),
    threadModel: z.boolean().meta({ description: 'The network chains posts into a thread, so `threadParts` applies.' }),
    caption: CaptionRulesSchema,
    title: orNull(TitleRulesSchema, 'Title published beside the caption; null: none.'),
    thread: orNull(ThreadRulesSchema, 'Thread rules; null when `threadModel` is false (`threadParts` is ignored).'),
    media: MediaRulesSchema,
    formats: z
      .array(FormatRulesSchema)
      .meta({ description: 'The post formats this network honours, each with its media rules.' }),
    defaultFormat: PostTypeSchema.meta({
      description:
        'A post whose `type` is not honoured here is published in this format instead of failing; the media attached still decides photo or video.',
    }),
    recommended: z.array(RecommendedSpecSchema),
    options: PostOptionsRulesSchema,
    deleteSupported: z.boolean().meta({ description: 'The network lets a published post be removed through its API.' }),
    insights: InsightsRulesSchema,
    limits: z.array(LimitRuleSchema),
    note,
  })
  .meta({ id: 'PlatformRules' })

export const RulesRegistrySchema = z.record(z.enum(PLATFORM_IDS), PlatformRulesSchema).meta({
  id: 'RulesRegistry',
  description:
    "Every platform's rules, keyed by platform id. The publisher and the validator read this same object. Units: bytes, pixels, seconds; aspect ratios are width / height; null means no limit.",
})

export type CaptionCounting = z.infer<typeof CaptionCountingSchema>
export type MediaKind = z.infer<typeof MediaKindSchema>
export type CanvasName = z.infer<typeof CanvasNameSchema>
export type PostMetric = (typeof POST_METRICS)[number]
export type VideoNetPrivacyLevel = (typeof VIDEO_NET_PRIVACY_LEVELS)[number]
export type TextBudget = z.infer<typeof TextBudgetSchema>
export type CaptionRules = z.infer<typeof CaptionRulesSchema>
export type TitleRules = z.infer<typeof TitleRulesSchema>
export type ThreadRules = z.infer<typeof ThreadRulesSchema>
export type ImageRules = z.infer<typeof ImageRulesSchema>
export type VideoRules = z.infer<typeof VideoRulesSchema>
export type MediaRules = z.infer<typeof MediaRulesSchema>
export type FormatRules = z.infer<typeof FormatRulesSchema>
export type RecommendedSpec = z.infer<typeof RecommendedSpecSchema>
export type PostOptionsRules = z.infer<typeof PostOptionsRulesSchema>
export type InsightsRules = z.infer<typeof InsightsRulesSchema>
export type LimitRule = z.infer<typeof LimitRuleSchema>
export type PlatformRules = z.infer<typeof PlatformRulesSchema>
export type RulesRegistry = z.infer<typeof RulesRegistrySchema>
