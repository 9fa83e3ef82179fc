import { z } from '@hono/zod-openapi'
import { CANVAS_NAMES } from '../domain/rules/schema'

const MEDIA_TYPES = ['IMAGE', 'VIDEO'] as const
const ALT_TEXT_MAX = 2000
export const MEDIA_PAGE_DEFAULT = 50
export const MEDIA_PAGE_MAX = 100

export const MediaIdParam = z.object({
  id: z
    .string()
    .min(1)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'med_6bX2kQ9vT4mW8pL1zR7cYa' }),
})

export const MediaAssetSchema = z
  .object({
    id: z.string().openapi({ description: 'Put it in `mediaIds`.', example: 'med_6bX2kQ9vT4mW8pL1zR7cYa' }),
    type: z.enum(MEDIA_TYPES),
    storageKey: z.string().openapi({ example: 'ws_3kq9/2026/11/Xb7pQ2mT9wLz-summer-launch.jpg' }),
    url: z.string().openapi({ description: 'Public URL of the file.' }),
    mimeType: z
      .string()
      .openapi({ description: "Read from the file's bytes, not from a name or a claim.", example: 'image/jpeg' }),
    width: z.number().int().nullable().openapi({
      description: "Pixels, as displayed (EXIF orientation or the video track's rotation applied); null when unknown.",
    }),
    height: z.number().int().nullable(),
    durationSec: z.number().nullable().openapi({
      description:
        'Video length read from the MP4/MOV header; null for images, and for videos whose length cannot be read (WebM).',
    }),
    sizeBytes: z.number().int(),
    altText: z.string().nullable(),
    folderId: z.string().nullable(),
    sourceId: z.string().nullable().openapi({ description: 'For a variant, the image it was cut from; else null.' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('MediaAsset')

export const CreateUploadSchema = z
  .object({
    filename: z.string().min(1).max(255).openapi({
      description: 'The original filename; it makes the storage key readable.',
      example: 'Summer launch.JPG',
    }),
    contentType: z.string().min(1).max(255).openapi({
      description: 'MIME type of the bytes you will PUT; the URL only accepts a PUT with exactly this `Content-Type`.',
      example: 'image/jpeg',
    }),
    sizeBytes: z.number().int().positive().optional().openapi({
      description:
        'Exact length of the file. When given it is signed too: the store then refuses a body of any other length. Recommended.',
      example: 2_481_337,
    }),
  })
  .openapi('CreateUpload')

export const UploadTicketSchema = z
  .object({
    uploadUrl: z
      .string()
      .openapi({ description: 'PUT the bytes here (straight to object storage, never through the API).' }),
    method: z.literal('PUT'),
    headers: z.record(z.string(), z.string()).openapi({
      description: 'Send exactly these headers with the PUT; they are part of the signature.',
      example: { 'Content-Type': 'image/jpeg' },
    }),
    storageKey: z.string(),
    url: z.string().openapi({
      description: 'Where the file is served once uploaded; pass it with `storageKey` to `POST /v1/media`.',
    }),
    expiresAt: z
      .string()
      .openapi({ format: 'date-time', description: 'The upload URL works until then (10 minutes).' }),
    maxSizeBytes: z.number().int().openapi({ example: 2_000_000_000 }),
  })
  .openapi('UploadTicket')

export const RegisterMediaSchema = z
  .object({
    type: z.enum(MEDIA_TYPES),
    storageKey: z
      .string()
      .min(1)
      .max(1024)
      .openapi({ description: 'From `POST /v1/media/uploads`.', 'x-id-of': 'upload' }),
    url: z.string().min(1).max(2048).openapi({
      description: 'The `url` of the same upload. The service never fetches a URL it did not issue.',
      'x-id-of': 'upload-url',
    }),
    mimeType: z
      .string()
      .optional()
      .openapi({ description: 'Optional claim; refused (422 `invalid_option`) when the file is something else.' }),
    width: z.number().int().positive().optional().openapi({ description: 'Optional claim, checked against the file.' }),
    height: z
      .number()
      .int()
      .positive()
      .optional()
      .openapi({ description: 'Optional claim, checked against the file.' }),
    durationSec: z
      .number()
      .nonnegative()
      .optional()
      .openapi({ description: 'Optional claim, checked (±0.5 s) where the length can be read.' }),
    sizeBytes: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .openapi({ description: 'Optional claim, checked against the stored object.' }),
    altText: z
      .string()
      .max(ALT_TEXT_MAX)
      .nullable()
      .optional()
      .openapi({ description: `Alternative text, at most ${ALT_TEXT_MAX} characters; variants inherit it.` }),
    folderId: z.string().nullable().optional().openapi({ description: 'An existing folder of the workspace.' }),
    folder: z.string().trim().min(1).max(100).optional().openapi({
      description:
        'A folder by name, created if the workspace has none of that name (ignored when `folderId` is given).',
      example: 'Summer launch',
    }),
  })
  .openapi('RegisterMedia', {
    example: {
      type: 'IMAGE',
      storageKey: 'ws_3kq9/2026/11/Xb7pQ2mT9wLz-summer-launch.jpg',
      url: 'https://media.example.com/ws_3kq9/2026/11/Xb7pQ2mT9wLz-summer-launch.jpg',
      altText: 'Two people on a beach at sunset',
      folder: 'Summer launch',
    },
  })

export const RegisterFromUrlSchema = z
  .object({
    sourceUrl: z.string().min(1).max(2048).openapi({
      description:
        'An http(s) address of the file. The service fetches it (public addresses only, redirects followed and checked, at most 5) and stores the bytes itself.',
      example: 'https://images.example.com/launch/beach.jpg',
    }),
    type: z
      .enum(MEDIA_TYPES)
      .optional()
      .openapi({ description: 'Optional claim; refused (422 `invalid_option`) when the file is the other type.' }),
    altText: z
      .string()
      .max(ALT_TEXT_MAX)
      .nullable()
      .optional()
      .openapi({ description: `Alternative text, at most ${ALT_TEXT_MAX} characters; variants inherit it.` }),
    folderId: z.string().nullable().optional().openapi({ description: 'An existing folder of the workspace.' }),
    folder: z.string().trim().min(1).max(100).optional().openapi({
      description:
        'A folder by name, created if the workspace has none of that name (ignored when `folderId` is given).',
    }),
  })
  .openapi('RegisterMediaFromUrl', {
    example: { sourceUrl: 'https://images.example.com/launch/beach.jpg', altText: 'Two people on a beach at sunset' },
  })

/** The arguments of the MCP tool `upload_media`: a file sent inline as base64. */
export const UploadMediaBytesSchema = z.object({
  data: z.string().min(1).openapi({ description: 'The file, base64 (standard alphabet; no `data:` prefix).' }),
  filename: z.string().trim().min(1).max(200).openapi({ description: 'A name for the file, e.g. `launch.png`.' }),
  contentType: z
    .string()
    .min(1)
    .max(100)
    .openapi({ description: 'Its MIME type, e.g. `image/png`; must match the bytes.' }),
  altText: z.string().max(ALT_TEXT_MAX).nullable().optional().openapi({ description: 'Alternative text.' }),
})

/** The body of `POST /v1/media`: a finished upload, or a URL the service fetches. */
export const RegisterMediaBodySchema = z.union([RegisterMediaSchema, RegisterFromUrlSchema])

export const UpdateMediaSchema = z
  .object({
    altText: z
      .string()
      .max(ALT_TEXT_MAX)
      .nullable()
      .optional()
      .openapi({
        description: `New alternative text, at most ${ALT_TEXT_MAX} characters; \`null\` or blank removes it. The asset's variants take it too.`,
      }),
    folderId: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'An existing folder of the workspace; `null` takes the file out of its folder.' }),
    folder: z.string().trim().min(1).max(100).optional().openapi({
      description:
        'A folder by name, created if the workspace has none of that name (ignored when `folderId` is given).',
    }),
  })
  .strict()
  .openapi('UpdateMedia', { example: { altText: 'Two people on a beach at sunset', folder: 'Summer launch' } })

export const ListMediaQuery = z.object({
  folderId: z
    .string()
    .min(1)
    .optional()
    .openapi({ param: { name: 'folderId', in: 'query' }, description: 'Only the assets of this folder.' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MEDIA_PAGE_MAX)
    .optional()
    .openapi({
      param: { name: 'limit', in: 'query' },
      description: `Page size, default ${MEDIA_PAGE_DEFAULT}, at most ${MEDIA_PAGE_MAX}. With it the answer is a page.`,
    }),
  cursor: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .openapi({
      param: { name: 'cursor', in: 'query' },
      description: 'The `nextCursor` of the previous page, as given (opaque). With it the answer is a page.',
    }),
})

export const MediaPageSchema = z
  .object({
    data: z.array(MediaAssetSchema),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass it as `cursor` for the next page; null on the last page.' }),
  })
  .openapi('MediaPage')

export const CreateVariantsSchema = z
  .object({
    formats: z
      .array(z.enum(CANVAS_NAMES))
      .min(1)
      .max(CANVAS_NAMES.length * 2),
    fit: z.enum(['cover', 'contain']).default('cover').openapi({
      description: '`cover` crops to fill the canvas; `contain` fits the whole image and pads the rest white.',
    }),
    crop: z.enum(['smart', 'centre']).default('smart').openapi({
      description:
        'For `cover`: `smart` keeps the most salient region (faces, skin, detail) in frame; `centre` cuts the middle.',
    }),
  })
  .openapi('CreateVariants', { example: { formats: ['feed_portrait', 'story'], fit: 'cover', crop: 'smart' } })

export const VariantsResultSchema = z
  .object({
    sourceId: z.string(),
    variants: z.array(
      z.object({
        id: z.string().openapi({ description: 'A media asset id: it can go in `mediaIds`.' }),
        url: z.string(),
        format: z.enum(CANVAS_NAMES),
        width: z.number().int(),
        height: z.number().int(),
      }),
    ),
  })
  .openapi('MediaVariants')
