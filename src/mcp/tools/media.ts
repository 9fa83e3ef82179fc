import { z } from '@hono/zod-openapi'
import { toolCaller } from '../caller'
import { CANVAS_NAMES } from '../../domain/rules/schema'
import {
  CreateUploadSchema,
  CreateVariantsSchema,
  ListMediaQuery,
  MEDIA_PAGE_DEFAULT,
  MediaAssetSchema,
  MediaIdParam,
  MediaPageSchema,
  RegisterFromUrlSchema,
  RegisterMediaSchema,
  UpdateMediaSchema,
  UploadMediaBytesSchema,
  UploadTicketSchema,
  VariantsResultSchema,
} from '../../schemas/media'
import { PostIdParam, WrittenPostSchema } from '../../schemas/posts'
import { listAssetPage, registerAsset } from '../../services/media/assets'
import { registerAssetFromBytes } from '../../services/media/from-bytes'
import { registerAssetFromUrl } from '../../services/media/from-url'
import { editAsset } from '../../services/media/edit'
import { createUpload } from '../../services/media/uploads'
import { createVariants } from '../../services/media/variants'
import { getPost } from '../../services/posts/read'
import { updatePost } from '../../services/posts/update'
import type { UpdatePostInput } from '../../services/posts/types'
import { defineTool, type McpTool, type ToolContext } from '../tool'

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const
const FORMATS = 'JPEG, PNG, GIF, WebP, BMP, TIFF images; MP4, MOV, M4V, WebM videos; at most 2 GB'

export const uploadFromUrlTool = defineTool({
  name: 'upload_media_from_url',
  permission: 'write',
  title: 'Add media from a URL',
  description: [
    'Adds an image or video from a URL: the service fetches `sourceUrl` (public http(s) only, 30 s), stores it and',
    `answers the asset: put its \`id\` in \`mediaIds\`. ${FORMATS}; type, size and dimensions come from the file.`,
    'Set `altText` (read aloud to blind users). A URL that cannot be fetched answers `invalid_request` with',
    '`details[0].reason`; an HTML page or another type `media_not_supported`.',
  ].join(' '),
  input: RegisterFromUrlSchema,
  output: MediaAssetSchema,
  annotations: { ...WRITE, openWorldHint: true },
  run: (ctx, input) => registerAssetFromUrl(ctx.deps, ctx.workspaceId, input),
})

export const uploadMediaTool = defineTool({
  name: 'upload_media',
  permission: 'write',
  title: 'Add media from base64 bytes',
  description: [
    'For a file you hold: send it as base64 in `data` with its `contentType`; answers the asset (id for `mediaIds`).',
    'A call is capped at 1 MiB (MAX_BODY_BYTES) and base64 adds a third, so files up to about 700 KB; beyond that use',
    `upload_media_from_url or create_media_upload. Accepted: ${FORMATS}; the bytes must be the type named.`,
  ].join(' '),
  input: UploadMediaBytesSchema,
  output: MediaAssetSchema,
  annotations: WRITE,
  rateLimit: 'uploads',
  run: (ctx, input) => registerAssetFromBytes(ctx.deps, ctx.workspaceId, input),
})

export const createUploadTool = defineTool({
  name: 'create_media_upload',
  permission: 'write',
  title: 'Upload a local file, step 1',
  description: [
    'For a file you hold (no public URL), step 1: answers a presigned `uploadUrl`. (2) PUT the bytes there with',
    'exactly `headers`, within 10 minutes; (3) register_media with `storageKey` and `url` for the asset id.',
    `${FORMATS}. 60 a minute. With a public URL, use upload_media_from_url.`,
  ].join(' '),
  input: CreateUploadSchema,
  output: UploadTicketSchema,
  annotations: WRITE,
  rateLimit: 'uploads',
  run: (ctx, input) => createUpload(ctx.deps, ctx.workspaceId, input),
})

export const registerMediaTool = defineTool({
  name: 'register_media',
  permission: 'write',
  title: 'Upload a local file, step 3',
  description: [
    'Step 3, after create_media_upload and the PUT: makes the stored file an asset and answers its `id`. Type,',
    'size, dimensions and duration are read from the bytes (claims that disagree: `invalid_option`); nothing stored:',
    '`media_not_found`. The same `storageKey` again answers the same asset.',
  ].join(' '),
  input: RegisterMediaSchema,
  output: MediaAssetSchema,
  annotations: { ...WRITE, idempotentHint: true },
  run: (ctx, input) => registerAsset(ctx.deps, ctx.workspaceId, input),
})

const AttachInput = z.object({
  postId: PostIdParam.shape.id,
  mediaIds: z.array(z.string().min(1).max(64)).min(1).max(35).openapi({
    description: 'Asset ids to add after the media the post already has, in this order (ids it has are not repeated).',
  }),
  format: z.enum(CANVAS_NAMES).optional().openapi({
    description: 'Attach each image cut to this canvas (as create_variants, with `fit` and `crop`) instead of as is.',
  }),
  fit: CreateVariantsSchema.shape.fit,
  crop: CreateVariantsSchema.shape.crop,
})

/** The variant of each asset on the one canvas asked for, in order (the same variants create_variants makes). */
async function cutToCanvas(
  ctx: ToolContext,
  ids: string[],
  options: Parameters<typeof createVariants>[3],
): Promise<string[]> {
  const out: string[] = []
  for (const id of ids) out.push((await createVariants(ctx.deps, ctx.workspaceId, id, options)).variants[0]!.id)
  return out
}

export const attachMediaTool = defineTool({
  name: 'attach_media',
  permission: 'write',
  title: 'Attach media to a post',
  description: [
    "Adds assets after a post's media (a DRAFT, or a SCHEDULED post not yet going out: it keeps its status and",
    'time), checked like update_post (media counts, types, sizes per network). A carousel needs `type: CAROUSEL`',
    '(update_post). Publishing or published: `post_not_editable`. With `format` (an image_formats canvas) each',
    'image is attached as its variant of that canvas.',
  ].join(' '),
  input: AttachInput,
  output: WrittenPostSchema,
  annotations: { ...WRITE, idempotentHint: true, openWorldHint: true },
  run: async (ctx, { postId, mediaIds, format, fit, crop }) => {
    const post = await getPost(ctx.deps.db, ctx.workspaceId, postId)
    const added = format ? await cutToCanvas(ctx, mediaIds, { formats: [format], fit, crop }) : mediaIds
    const changes: UpdatePostInput = { mediaIds: [...new Set([...post.mediaIds, ...added])] }
    // The edit keeps the post where it was: an edit without an action would send it back to DRAFT.
    if (post.status === 'SCHEDULED') changes.action = 'schedule'
    return updatePost(ctx.deps, toolCaller(ctx), postId, changes)
  },
})

export const listMediaTool = defineTool({
  name: 'list_media',
  permission: 'read',
  title: 'The media library',
  description: [
    'The media library, newest first, variants included (id, type, dimensions, duration, size, alt text), to reuse',
    `media already uploaded. \`limit\` (default ${MEDIA_PAGE_DEFAULT}, at most 100), then \`cursor\` = \`nextCursor\` until null.`,
  ].join(' '),
  input: ListMediaQuery,
  output: MediaPageSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: ({ deps, workspaceId }, { folderId, cursor, limit }) =>
    listAssetPage(deps.db, workspaceId, { folderId, cursor, limit: limit ?? MEDIA_PAGE_DEFAULT }),
})

export const createVariantsTool = defineTool({
  name: 'create_variants',
  permission: 'write',
  title: 'Cut an image to platform canvases',
  description: [
    'Cuts new image assets to exact canvases from one image: `feed_portrait` 1080x1350, `feed_square` 1080x1080,',
    '`landscape` 1080x566, `story` 1080x1920. `fit: cover` crops (`crop: smart` keeps faces and detail in frame),',
    '`contain` pads white. For when preview_post refuses an aspect ratio. Asking again answers the same variants.',
    'JPEG and PNG only. 30 a minute.',
  ].join(' '),
  input: MediaIdParam.extend(CreateVariantsSchema.shape),
  output: VariantsResultSchema,
  annotations: { ...WRITE, idempotentHint: true },
  rateLimit: 'variants',
  run: (ctx, { id, ...options }) => createVariants(ctx.deps, ctx.workspaceId, id, options),
})

export const editMediaTool = defineTool({
  name: 'edit_media',
  permission: 'write',
  title: "Change an asset's alt text or folder",
  description: [
    'Sets `altText` (null or blank removes it; the variants cut from the asset take it too) and/or moves the asset',
    'to `folderId` (null: no folder) or to a folder by name (`folder`, created when missing). The file never',
    'changes, and posts already published keep what the network received.',
  ].join(' '),
  input: MediaIdParam.extend(UpdateMediaSchema.shape),
  output: MediaAssetSchema,
  annotations: { ...WRITE, idempotentHint: true },
  run: (ctx, { id, ...changes }) => editAsset(ctx.deps, ctx.workspaceId, id, changes),
})

export const MEDIA_TOOLS: McpTool[] = [
  uploadFromUrlTool,
  uploadMediaTool,
  createUploadTool,
  registerMediaTool,
  attachMediaTool,
  listMediaTool,
  createVariantsTool,
  editMediaTool,
]
