import { z } from '@hono/zod-openapi'
import { CANVAS_NAMES } from '../domain/rules/schema'
import { PLATFORM_IDS, POST_TYPES } from '../domain/vocabulary'

const Placement = z.object({ platform: z.enum(PLATFORM_IDS), format: z.enum(POST_TYPES) })

export const ImageFormatsSchema = z
  .object({
    canvases: z.array(
      z.object({
        canvas: z.enum(CANVAS_NAMES),
        width: z.number().int(),
        height: z.number().int(),
        aspectRatio: z.number().openapi({ description: 'Width / height.' }),
        usedBy: z.array(Placement).openapi({ description: 'Placements whose recommended size this canvas is.' }),
      }),
    ),
    otherSizes: z
      .array(Placement.extend({ width: z.number().int(), height: z.number().int() }))
      .openapi({ description: 'Recommended sizes no canvas produces (video frames, other ratios).' }),
  })
  .openapi('ImageFormats')

export const PlatformParam = z.object({
  platform: z.enum(PLATFORM_IDS).openapi({ param: { name: 'platform', in: 'path' }, example: 'PHOTO_NET' }),
})

export const AudioCatalogueSchema = z
  .object({
    platform: z.enum(PLATFORM_IDS),
    formats: z.array(z.enum(POST_TYPES)).openapi({ description: 'Formats that take `audio` on this platform.' }),
    audio: z.array(z.object({ id: z.string(), title: z.string() })).openapi({ description: 'Tracks; empty today.' }),
    reason: z.string().openapi({ description: 'Why the list is what it is, in words.' }),
  })
  .openapi('AudioCatalogue')
