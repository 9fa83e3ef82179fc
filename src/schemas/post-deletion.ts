import { z } from '@hono/zod-openapi'
import { NETWORK_REMOVAL_OUTCOMES } from '../domain/publishing/network-removal'
import { PLATFORM_IDS } from '../domain/vocabulary'
import { TargetSchema } from './posts'

export const DeletePostQuery = z.object({
  fromNetworks: z
    .enum(['true', 'false'])
    .optional()
    .openapi({
      description:
        '`true`: also delete what each target published from its network (thread parts and album items ' +
        'included) and answer per target what happened. Without it (or `false`) only our record goes and ' +
        'everything published stays on the networks.',
    }),
})

export const DeletedPostSchema = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .openapi('DeletedPost', { description: 'Without `fromNetworks`: our record is gone; nothing changed on a network.' })

const TargetRemovalSchema = z
  .object({
    targetId: z.string(),
    accountId: z.string(),
    platform: z.enum(PLATFORM_IDS),
    outcome: z.enum(NETWORK_REMOVAL_OUTCOMES).openapi({
      description:
        '`deleted`: removed from the network, every thread part and album item with it. ' +
        '`not_supported`: the network has no delete endpoint; the post stays published there. ' +
        '`not_published`: nothing of it reached the network; its publish is cancelled. ' +
        'For these three our record of the target is removed. ' +
        '`failed`: the network refused or failed (see `error`); `unconfirmed`: we cannot tell whether its ' +
        'publish reached the network, so nothing was deleted (check the network); `in_progress`: it is being ' +
        'published right now. For these three our record is kept, and deleting again retries only what is left.',
    }),
    message: z.string().openapi({ description: 'What happened, in words a person can act on.' }),
    permalink: z
      .string()
      .nullable()
      .openapi({ description: 'Where the post still is on the network (null once deleted or never published).' }),
    deletedIds: z.array(z.string()).openapi({ description: "The network's ids removed, now or by an earlier call." }),
    remainingIds: z
      .array(z.string())
      .openapi({ description: "The network's ids still published there, as far as we know." }),
    error: TargetSchema.shape.error.openapi({ description: "The network's failure, for `failed` only." }),
  })
  .openapi('TargetRemoval')

export const PostNetworkDeletionSchema = z
  .object({
    id: z.string(),
    deleted: z.boolean().openapi({
      description:
        'True when our record of the post is gone: no target is left to act on. False when it is kept with ' +
        'the targets that are `failed`, `unconfirmed` or `in_progress`.',
    }),
    targets: z.array(TargetRemovalSchema).openapi({ description: "One entry per target, in the post's order." }),
  })
  .openapi('PostNetworkDeletion', { description: 'With `fromNetworks=true`: what happened at each network.' })
