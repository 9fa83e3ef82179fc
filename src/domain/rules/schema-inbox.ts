/** What the inbox may do on a network: read comments and mentions, and act on a comment. */
import { z } from 'zod'
import { note, positive } from './schema-fields'
import type { INBOX_ACTIONS } from './schema-names'

export const InboxRulesSchema = z
  .object({
    comments: z.boolean().meta({
      description:
        "Comments (and their replies) on the account's published and imported posts are read into the inbox.",
    }),
    reply: z.boolean().meta({ description: 'A comment can be answered through the service.' }),
    hide: z.boolean().meta({ description: 'A comment can be hidden from the public, and shown again.' }),
    delete: z.boolean().meta({ description: 'A comment can be removed from the network.' }),
    like: z.boolean().meta({ description: 'A comment can be liked in the name of the account.' }),
    mentions: z.boolean().meta({ description: 'Posts that mention the account are read into the inbox.' }),
    replyMaxLength: positive.nullable().meta({
      description:
        "Most units in a reply, counted with the caption's `counting`; null: the caption's own budget (`caption.maxLength`).",
    }),
    note,
  })
  .meta({
    id: 'InboxRules',
    description:
      'What the inbox reads from this network and which actions it allows on a comment; an action not allowed is refused (422) naming it.',
  })

export type InboxRules = z.infer<typeof InboxRulesSchema>
export type InboxAction = (typeof INBOX_ACTIONS)[number]
