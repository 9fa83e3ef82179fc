import { canvasUsage } from '../../domain/rules/canvas-usage'
import { audioCatalogue } from '../../domain/rules/audio-catalogues'
import { AudioCatalogueSchema, ImageFormatsSchema, PlatformParam } from '../../schemas/platforms'
import { z } from '@hono/zod-openapi'
import { defineTool, type McpTool } from '../tool'

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const

export const imageFormatsTool = defineTool({
  name: 'image_formats',
  title: 'Image canvases and where they are used',
  description:
    'The canvases of create_variants and attach_media `format` (size, aspect ratio) and the platform formats each suits, plus recommended sizes no canvas makes.',
  input: z.object({}),
  output: ImageFormatsSchema,
  annotations: READ,
  run: async () => canvasUsage(),
})

export const listAudioTool = defineTool({
  name: 'list_audio',
  title: 'Audio tracks for reels',
  description:
    "The audio tracks a platform's reel or short-video formats can take (`audio.audioId` of create_post), or an empty list and the reason in words (no network's catalogue is read today).",
  input: PlatformParam,
  output: AudioCatalogueSchema,
  annotations: READ,
  run: async (_ctx, { platform }) => audioCatalogue(platform),
})

export const REFERENCE_TOOLS: McpTool[] = [imageFormatsTool, listAudioTool]
