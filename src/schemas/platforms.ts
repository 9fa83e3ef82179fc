import { z } from '@hono/zod-openapi'
import { AUDIO_KINDS } from '../domain/rules/audio-catalogues'
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

export const AudioQuerySchema = z.object({
  accountId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({
      param: { name: 'accountId', in: 'query' },
      description: "The account whose catalogue to read (it is the network's, per account); omitted: none is read.",
    }),
  kind: z
    .enum(AUDIO_KINDS)
    .optional()
    .openapi({ param: { name: 'kind', in: 'query' }, description: 'Default music.' }),
  query: z
    .string()
    .max(100)
    .optional()
    .openapi({ param: { name: 'query', in: 'query' }, description: 'Search words; omitted: trending tracks.' }),
  cursor: z
    .string()
    .max(512)
    .optional()
    .openapi({ param: { name: 'cursor', in: 'query' }, description: '`nextCursor` of the previous page.' }),
})

export const AudioCatalogueSchema = z
  .object({
    platform: z.enum(PLATFORM_IDS),
    formats: z.array(z.enum(POST_TYPES)).openapi({ description: 'Formats that take `audio` on this platform.' }),
    audio: z
      .array(
        z.object({
          id: z.string().openapi({ description: 'The `audio.audioId` of a REEL post.' }),
          title: z.string(),
          artist: z.string().nullable(),
          durationSec: z.number().nullable(),
        }),
      )
      .openapi({ description: "Tracks read from the network with the account's token; empty when none is read." }),
    nextCursor: z.string().nullable().openapi({ description: '`cursor` for the next page; null: no more.' }),
    reason: z.string().openapi({ description: 'Why the list is what it is, in words.' }),
  })
  .openapi('AudioCatalogue')
