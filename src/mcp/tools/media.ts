import { z } from '@hono/zod-openapi'
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
import { listAssetPage, registerAsset } from '../../services/media-assets'
import { registerAssetFromBytes } from '../../services/media-from-bytes'
import { registerAssetFromUrl } from '../../services/media-from-url'
import { editAsset } from '../../services/media-edit'
import { createUpload } from '../../services/media-uploads'
import { createVariants } from '../../services/media-variants'
import { getPost } from '../../services/posts/read'
import { updatePost } from '../../services/posts/write'
import type { UpdatePostInput } from '../../services/posts/types'
import { defineTool, type McpTool, type ToolContext } from '../tool'

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const
const FORMATS = 'JPEG, PNG, GIF, WebP, BMP, TIFF images; MP4, MOV, M4V, WebM videos; at most 2 GB'

export const uploadFromUrlTool = defineTool({
  name: 'upload_media_from_url',
  title: 'Add media from a URL',
  description: [
    'The easiest way to add an image or video: the service fetches `sourceUrl` (public http(s) addresses only,',
    'redirects checked, 30 s, at most 2 GB), stores the bytes and answers the asset; put its `id` in `mediaIds`.',
    `Accepted: ${FORMATS}. Type, size and dimensions are read from the file. Each call makes a new asset.`,
    'Set `altText` (read aloud to blind users). Errors: `invalid_request` with `details[0].reason` (refused,',
    'unreachable, status, timeout) when the URL cannot be fetched, `media_not_supported` for an HTML page or',
    'another type. Check platform_limits for the sizes and durations each network takes.',
  ].join(' '),
  input: RegisterFromUrlSchema,
  output: MediaAssetSchema,
  annotations: { ...WRITE, openWorldHint: true },
  run: (ctx, input) => registerAssetFromUrl(ctx.deps, ctx.workspaceId, input),
})

export const uploadMediaTool = defineTool({
  name: 'upload_media',
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
  title: 'Upload a local file, step 1',
  description: [
    'For a file you hold yourself (no public URL): answers a presigned `uploadUrl`. Then (2) HTTP PUT the bytes',
    'there with exactly the `headers` given, within 10 minutes (the bytes never pass through this tool), and (3) call',
    'register_media with the `storageKey` and `url` of this answer to get the asset id. Give `sizeBytes` when you',
    `know it. Accepted: ${FORMATS}. Rate limit: 60 a minute. With a public URL, use upload_media_from_url instead.`,
  ].join(' '),
  input: CreateUploadSchema,
  output: UploadTicketSchema,
  annotations: WRITE,
  rateLimit: 'uploads',
  run: (ctx, input) => createUpload(ctx.deps, ctx.workspaceId, input),
})

export const registerMediaTool = defineTool({
  name: 'register_media',
  title: 'Upload a local file, step 3',
  description: [
    'After create_media_upload and the PUT: makes the stored file an asset and answers its `id` (for `mediaIds`).',
    'Type, size, dimensions and duration are read from the stored bytes; optional claims that disagree are',
    'refused (`invalid_option`). Nothing stored under `storageKey` answers `media_not_found`. Registering the',
    'same `storageKey` again answers the same asset.',
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
  title: 'Attach media to a post',
  description: [
    'Adds assets to an existing post (a DRAFT, or a SCHEDULED post that has not started going out), after its',
    'current media; the edit is checked like update_post (media count, types and sizes per network, so check',
    'platform_limits). A SCHEDULED post stays scheduled at its time; a DRAFT stays a draft. A carousel needs',
    '`type: CAROUSEL` (update_post). A post publishing or published answers `post_not_editable`. With `format`',
    '(a canvas of image_formats) each image is attached as its variant of that canvas, made as create_variants makes it.',
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
    return updatePost(ctx.deps, ctx.workspaceId, postId, changes)
  },
})

export const listMediaTool = defineTool({
  name: 'list_media',
  title: 'The media library',
  description: [
    'The assets of the workspace, variants included, newest first: id, type, dimensions, duration, size, alt text.',
    `One page at a time: \`limit\` (default ${MEDIA_PAGE_DEFAULT}, at most 100), then pass \`nextCursor\` as`,
    '`cursor` until it is null. `folderId` keeps one folder. Use it to reuse media already uploaded.',
  ].join(' '),
  input: ListMediaQuery,
  output: MediaPageSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: ({ deps, workspaceId }, { folderId, cursor, limit }) =>
    listAssetPage(deps.db, workspaceId, { folderId, cursor, limit: limit ?? MEDIA_PAGE_DEFAULT }),
})

export const createVariantsTool = defineTool({
  name: 'create_variants',
  title: 'Cut an image to platform canvases',
  description: [
    'Makes new image assets of exact canvas sizes from one image: `feed_portrait` 1080x1350 (4:5), `feed_square`',
    '1080x1080, `landscape` 1080x566 (1.91:1), `story` 1080x1920 (9:16). `fit: cover` crops (with `crop: smart`',
    'keeping faces and detail in frame), `contain` pads white. Use it when preview_post says an aspect ratio is',
    'refused, then use the variant ids in `mediaIds`. Asking again answers the same variants. JPEG and PNG',
    'sources only (`media_not_supported` otherwise). Rate limit: 30 a minute.',
  ].join(' '),
  input: MediaIdParam.extend(CreateVariantsSchema.shape),
  output: VariantsResultSchema,
  annotations: { ...WRITE, idempotentHint: true },
  rateLimit: 'variants',
  run: (ctx, { id, ...options }) => createVariants(ctx.deps, ctx.workspaceId, id, options),
})

export const editMediaTool = defineTool({
  name: 'edit_media',
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
