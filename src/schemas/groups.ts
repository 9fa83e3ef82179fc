import { z } from '@hono/zod-openapi'

export const COLOR = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb')
  .openapi({ description: 'A colour as `#rrggbb`.', example: '#0ea5e9' })
export const NAME = z.string().trim().min(1).max(80).openapi({ example: 'Acme Coffee' })
const accountIds = z
  .array(z.string().min(1).max(64))
  .max(500)
  .openapi({
    description:
      "The group's accounts; replaces them all. An account of another workspace (or none) is 422 `account_not_found`.",
  })

export const GroupSchema = z
  .object({
    id: z.string().openapi({ example: 'grp_4kq7Zm0pL2aYbN4tR8cVxd' }),
    name: z.string(),
    color: z.string().nullable(),
    approvalRequired: z.boolean().openapi({ description: "Posts to this group's accounts need an approval." }),
    accountIds: z.array(z.string()),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Group')

export const CreateGroupSchema = z
  .object({
    name: NAME,
    color: COLOR.nullable().optional(),
    approvalRequired: z.boolean().optional(),
    accountIds: accountIds.optional(),
  })
  .openapi('CreateGroup')

export const UpdateGroupSchema = z
  .object({
    name: NAME.optional(),
    color: COLOR.nullable().optional(),
    approvalRequired: z.boolean().optional(),
    accountIds: accountIds.optional(),
  })
  .openapi('UpdateGroup')

export const GroupIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'grp_4kq7Zm0pL2aYbN4tR8cVxd' }),
})

export const DeletedGroupSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('DeletedGroup')
