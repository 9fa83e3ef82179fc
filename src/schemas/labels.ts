import { z } from '@hono/zod-openapi'
import { COLOR, NAME } from './groups'

export const LabelSchema = z
  .object({
    id: z.string().openapi({ example: 'lbl_7Tq2v8LmN3pR5sW7yZa1bc' }),
    name: z.string(),
    color: z.string(),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Label')

export const CreateLabelSchema = z
  .object({ name: NAME.openapi({ example: 'Spring sale' }), color: COLOR.optional() })
  .openapi('CreateLabel')

export const UpdateLabelSchema = z
  .object({ name: NAME.optional(), color: COLOR.optional() })
  .openapi('UpdateLabel')

export const LabelIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'lbl_7Tq2v8LmN3pR5sW7yZa1bc' }),
})

export const DeletedLabelSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('DeletedLabel')
