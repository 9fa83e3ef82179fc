import { canvasUsage } from '../../domain/rules/canvas-usage'
import { listAudio } from '../../services/accounts/audio'
import { AudioCatalogueSchema, AudioQuerySchema, ImageFormatsSchema, PlatformParam } from '../../schemas/platforms'
import { z } from '@hono/zod-openapi'
import { defineTool, type McpTool } from '../tool'

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const

export const imageFormatsTool = defineTool({
  name: 'image_formats',
  permission: 'read',
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
  permission: 'read',
  title: 'Audio tracks for reels',
  description:
    "Tracks a platform's reels can take (`audio.audioId` of create_post), read from the network with an account's token (`accountId`; PHOTO_NET through SOCIALGRAPH_LOGIN), or an empty list and the reason.",
  input: PlatformParam.extend(AudioQuerySchema.shape),
  output: AudioCatalogueSchema,
  annotations: { ...READ, openWorldHint: true },
  run: async (ctx, ask) => listAudio(ctx.deps, ctx.workspaceId, ask),
})

export const REFERENCE_TOOLS: McpTool[] = [imageFormatsTool, listAudioTool]
