/**
 * The shape of the rules registry. Rules are data, not code: the validator, the publisher and
 * `GET /v1/platforms` read the same object. One `PlatformRules` per platform id; the endpoint
 * serves the whole `RulesRegistry` object, keyed by id.
 *
 * Conventions, shared by every field: sizes are bytes, dimensions are pixels, durations are
 * seconds, aspect ratios are width / height as a decimal (4:5 = 0.8, 1.91:1 = 1.91), and
 * `null` means "the network sets no limit here", never zero. Served text stays free of the
 * networks' brand names, like the rest of the interface.
 *
 * This file holds the whole `PlatformRules` and what has no part of its own (insights, limits,
 * display); the parts are beside it and re-exported here: text budgets (schema-text.ts), post
 * options (schema-options.ts), media (schema-media.ts), inbox (schema-inbox.ts), the closed
 * lists (schema-names.ts).
 */
import { z } from 'zod'
import { CONNECTIONS, PLATFORM_IDS } from '../vocabulary'
import { note, orNull, positive } from './schema-fields'
import { InboxRulesSchema } from './schema-inbox'
import {
  type CanvasNameSchema,
  type MediaKindSchema,
  MediaRulesSchema,
  PostTypeSchema,
  RecommendedSpecSchema,
  FormatRulesSchema,
} from './schema-media'
import { LIMITED_ACTIONS, POST_METRICS, type VIDEO_NET_PRIVACY_LEVELS } from './schema-names'
import { PostOptionsRulesSchema } from './schema-options'
import { CaptionFormattingSchema, CaptionRulesSchema, ThreadRulesSchema, TitleRulesSchema } from './schema-text'

export * from './schema-text'
export * from './schema-options'
export * from './schema-media'
export * from './schema-names'
export * from './schema-inbox'

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

export type MediaKind = z.infer<typeof MediaKindSchema>
export type CanvasName = z.infer<typeof CanvasNameSchema>
export type PostMetric = (typeof POST_METRICS)[number]
export type VideoNetPrivacyLevel = (typeof VIDEO_NET_PRIVACY_LEVELS)[number]
export type InsightsRules = z.infer<typeof InsightsRulesSchema>
export type LimitRule = z.infer<typeof LimitRuleSchema>
export type NetworkDisplay = z.infer<typeof NetworkDisplaySchema>
export type PlatformRules = z.infer<typeof PlatformRulesSchema>
export type RulesRegistry = z.infer<typeof RulesRegistrySchema>
