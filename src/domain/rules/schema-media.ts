/** The media part of the rules registry: images, videos, formats and recommended sizes. */
import { z } from 'zod'
import { POST_TYPES } from '../vocabulary'
import { CANVAS_NAMES, MEDIA_KINDS } from './schema-names'
import { note, orNull, pixels, positive, ratio, seconds } from './schema-fields'

export const MediaKindSchema = z.enum(MEDIA_KINDS).meta({ id: 'MediaKind' })
export const CanvasNameSchema = z.enum(CANVAS_NAMES).meta({ id: 'CanvasName' })
export const PostTypeSchema = z.enum(POST_TYPES)

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

export type ImageRules = z.infer<typeof ImageRulesSchema>
export type VideoRules = z.infer<typeof VideoRulesSchema>
export type MediaRules = z.infer<typeof MediaRulesSchema>
export type FormatRules = z.infer<typeof FormatRulesSchema>
export type RecommendedSpec = z.infer<typeof RecommendedSpecSchema>
