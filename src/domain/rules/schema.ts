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
import { CONNECTIONS, PLATFORM_IDS } from '../vocabulary'
import { count, note, orNull, positive } from './schema-fields'
import { InboxRulesSchema } from './schema-inbox'
import {
  type CanvasNameSchema,
  MediaKindSchema,
  MediaRulesSchema,
  PostTypeSchema,
  RecommendedSpecSchema,
  FormatRulesSchema,
} from './schema-media'
import { CAPTION_COUNTINGS, LIMITED_ACTIONS, POST_METRICS, VIDEO_NET_PRIVACY_LEVELS } from './schema-names'

export * from './schema-media'
export * from './schema-names'
export * from './schema-inbox'

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

export const CaptionFormattingSchema = z
  .object({
    markdown: z.boolean().meta({ description: 'Markdown in the caption is rendered; false: shown as typed.' }),
    links: z.enum(['clickable', 'shortened', 'not_clickable']).meta({
      description: '`shortened`: clickable, wrapped in a short link and counted as `caption.urlWeight`.',
    }),
    lineBreaks: z.boolean().meta({ description: 'Line breaks are kept.' }),
    hashtags: z.string().nullable().meta({ description: 'Syntax of a linked hashtag; null: not linked.' }),
    mentions: z.string().nullable().meta({ description: 'Syntax of a linked mention; null: not linked.' }),
    note,
  })
  .meta({ id: 'CaptionFormatting', description: 'How the network shows the caption.' })

export const TitleRulesSchema = TextBudgetSchema.extend({
  required: z.boolean().meta({ description: 'The network needs a non-empty title.' }),
  field: z.enum(['pinboardNetOptions.title', 'title']).nullable().meta({
    description:
      "Body field that sets the title explicitly: `title` is the post body's top-level `title` (over the budget: `title_too_long`), `pinboardNetOptions.title` the pin title (over the budget: `pin_title_too_long`); null: always derived.",
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

export const OPTION_FIELD_TYPES = ['string', 'text', 'boolean', 'enum', 'tags', 'url', 'datetime', 'integer'] as const

export const OptionFieldSchema = z
  .object({
    key: z.string().meta({ description: 'Key of the value in `targetOptions.<accountId>`.', example: 'flair' }),
    label: z.string().meta({ description: 'What a form shows beside the input.', example: 'Flair' }),
    type: z.enum(OPTION_FIELD_TYPES).meta({
      description:
        '`string`: one line of text; `text`: several lines; `boolean`: true or false; `enum`: one of `values`; `tags`: a list of strings; `url`: an http(s) URL; `datetime`: an ISO 8601 instant with an offset; `integer`: a whole number.',
    }),
    values: z
      .array(z.string())
      .nullable()
      .meta({ description: 'The values an `enum` takes; null for every other type.' }),
    maxLength: positive
      .nullable()
      .meta({ description: 'Most characters of a text value, or of each tag; null: no limit.' }),
    maxItems: positive.nullable().meta({ description: 'Most entries of a `tags` value; null: no limit.' }),
    min: z.number().int().nullable().meta({ description: 'Least value of an `integer`; null: no limit.' }),
    max: z.number().int().nullable().meta({ description: 'Greatest value of an `integer`; null: no limit.' }),
    requiredToPublish: z
      .boolean()
      .meta({ description: 'A draft saves without it; scheduling or publishing a target without it is refused.' }),
    description: z.string().meta({ description: 'What the value does on the network, in a sentence.' }),
  })
  .meta({ id: 'OptionField', description: 'One per-target option a network takes, as data.' })

export const DestinationRulesSchema = z
  .object({
    noun: z.string().meta({ description: 'What one destination is called.', example: 'board' }),
    nounPlural: z.string().meta({ example: 'boards' }),
    requiredToPublish: z.boolean().meta({
      description: 'A target without a destination cannot be scheduled or published now; a draft saves without one.',
    }),
    note,
  })
  .meta({
    id: 'DestinationRules',
    description:
      'The network publishes into a place chosen per target (`destinations.<accountId>`), listed by GET /v1/accounts/{id}/destinations.',
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
        catalogue: z.array(z.enum(CONNECTIONS)).meta({
          description:
            "Account connections through which the network's audio catalogue is read (list_audio); []: none.",
        }),
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
    destination: orNull(DestinationRulesSchema, 'A place chosen per target; null: none (`destinations` is refused).'),
    fields: z.array(OptionFieldSchema).meta({
      description: 'Per-target options (`targetOptions.<accountId>.<key>`); []: none (`targetOptions` is refused).',
    }),
  })
  .meta({ id: 'PostOptionsRules', description: 'Which optional post body fields apply on this network.' })

export const InsightsRulesSchema = z
  .object({
    importsPosts: z.boolean().meta({
      description:
        'The account\'s recent posts are read from the network\'s listing and kept as read-only external posts (`source: "external"`), so analytics and best times cover the whole account.',
    }),
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

const hexColor = z.string().regex(/^#[0-9a-f]{6}$/)

export const NetworkDisplaySchema = z
  .object({
    name: z.string().meta({ description: 'The name people see for this network.', example: 'Microblog' }),
    color: hexColor.meta({
      description:
        "The network's colour (`#rrggbb`): white text reads on it at 4.5:1, and it stands at 3:1 against a dark background, so it works as a fill, a border or a mark's stroke in light and dark themes.",
      example: '#1a76b8',
    }),
    foreground: hexColor.meta({ description: 'Colour of text or a mark drawn on `color`.', example: '#ffffff' }),
    mark: z.string().meta({
      description:
        'The network\'s mark, drawn for this service (no brand logo): SVG path data on a 24x24 viewBox, drawn with `fill="none"`, `stroke-width="2"`, round caps and joins, in `color` or `foreground`.',
      example: 'M4 4h16v12h-9l-5 4v-4H4zM8 8h8M8 12h5',
    }),
  })
  .meta({ id: 'NetworkDisplay', description: 'How the network is shown to people: name, colour and mark.' })

export const PlatformRulesSchema = z
  .object({
    platform: z.enum(PLATFORM_IDS),
    display: NetworkDisplaySchema,
    name: z.string().meta({ description: 'What kind of network this is.', example: 'microblog network' }),
    connections: z
      .array(z.enum(CONNECTIONS))
      .meta({ description: 'Ways an account of this platform can be connected.' }),
    threadModel: z.boolean().meta({ description: 'The network chains posts into a thread, so `threadParts` applies.' }),
    caption: CaptionRulesSchema,
    formatting: CaptionFormattingSchema,
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
    inbox: InboxRulesSchema,
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
export type CaptionFormatting = z.infer<typeof CaptionFormattingSchema>
export type TitleRules = z.infer<typeof TitleRulesSchema>
export type ThreadRules = z.infer<typeof ThreadRulesSchema>
export type PostOptionsRules = z.infer<typeof PostOptionsRulesSchema>
export type OptionField = z.infer<typeof OptionFieldSchema>
export type OptionFieldType = (typeof OPTION_FIELD_TYPES)[number]
export type DestinationRules = z.infer<typeof DestinationRulesSchema>
export type InsightsRules = z.infer<typeof InsightsRulesSchema>
export type LimitRule = z.infer<typeof LimitRuleSchema>
export type NetworkDisplay = z.infer<typeof NetworkDisplaySchema>
export type PlatformRules = z.infer<typeof PlatformRulesSchema>
export type RulesRegistry = z.infer<typeof RulesRegistrySchema>
