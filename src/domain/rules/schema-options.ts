/**
 * The post options part of the rules registry: which optional post body fields a network takes
 * (`PostOptionsRules`: first comment, reply and quote, video privacy, audio, boards, link use),
 * the place a target publishes into (`DestinationRules`) and per-target option fields as data
 * (`OptionField`).
 */
import { z } from 'zod'
import { CONNECTIONS } from '../vocabulary'
import { note, orNull, positive } from './schema-fields'
import { PostTypeSchema } from './schema-media'
import { VIDEO_NET_PRIVACY_LEVELS } from './schema-names'
import { CaptionCountingSchema } from './schema-text'

export const OPTION_FIELD_TYPES = ['string', 'text', 'boolean', 'enum', 'tags', 'url', 'datetime', 'integer'] as const

export const OptionFieldSchema = z
  .object({
    key: z.string().meta({ description: 'Key of the value in `targetOptions.<accountId>`.', example: 'flair' }),
    label: z.string().meta({ description: 'What a form shows beside the input.', example: 'Flair' }),
    type: z.enum(OPTION_FIELD_TYPES).meta({
      description:
        '`string`: one line of text; `text`: several lines; `boolean`: true or false; `enum`: one of `values`; `tags`: a list of strings; `url`: an http(s) URL; `datetime`: an ISO 8601 instant with an offset; `integer`: a whole number.',
    }),
    values: z
      .array(z.string())
      .nullable()
      .meta({ description: 'The values an `enum` takes; null for every other type.' }),
    maxLength: positive
      .nullable()
      .meta({ description: 'Most characters of a text value, or of each tag; null: no limit.' }),
    maxItems: positive.nullable().meta({ description: 'Most entries of a `tags` value; null: no limit.' }),
    min: z.number().int().nullable().meta({ description: 'Least value of an `integer`; null: no limit.' }),
    max: z.number().int().nullable().meta({ description: 'Greatest value of an `integer`; null: no limit.' }),
    requiredToPublish: z
      .boolean()
      .meta({ description: 'A draft saves without it; scheduling or publishing a target without it is refused.' }),
    description: z.string().meta({ description: 'What the value does on the network, in a sentence.' }),
  })
  .meta({ id: 'OptionField', description: 'One per-target option a network takes, as data.' })

export const DestinationRulesSchema = z
  .object({
    noun: z.string().meta({ description: 'What one destination is called.', example: 'board' }),
    nounPlural: z.string().meta({ example: 'boards' }),
    requiredToPublish: z.boolean().meta({
      description: 'A target without a destination cannot be scheduled or published now; a draft saves without one.',
    }),
    note,
  })
  .meta({
    id: 'DestinationRules',
    description:
      'The network publishes into a place chosen per target (`destinations.<accountId>`), listed by GET /v1/accounts/{id}/destinations.',
  })

export const PostOptionsRulesSchema = z
  .object({
    firstComment: z
      .object({
        formats: z.array(PostTypeSchema).meta({ description: 'Formats under which the comment is posted.' }),
        maxLength: positive,
        counting: CaptionCountingSchema,
      })
      .nullable()
      .meta({
        description:
          '`firstComment` is posted right after the post; a comment the network refuses does not fail the post. Null: ignored here.',
      }),
    replyToMicropostId: z.boolean().meta({ description: '`replyToMicropostId` applies (an id or a URL).' }),
    quoteMicropostId: z.boolean().meta({ description: '`quoteMicropostId` applies (an id or a URL).' }),
    videoNetOptions: z
      .object({
        privacyLevels: z.array(z.enum(VIDEO_NET_PRIVACY_LEVELS)),
        defaultPrivacyLevel: z
          .enum(VIDEO_NET_PRIVACY_LEVELS)
          .meta({ description: 'Used when the account has no entry in `videoNetOptions`.' }),
        switches: z.array(z.string()).meta({ description: 'Boolean fields of an entry.' }),
        note,
      })
      .nullable()
      .meta({ description: 'Per-account `videoNetOptions`; null: ignored here.' }),
    audio: z
      .object({
        formats: z.array(PostTypeSchema),
        connections: z
          .array(z.enum(CONNECTIONS))
          .meta({ description: 'Account connections through which `audio` is sent.' }),
        catalogue: z.array(z.enum(CONNECTIONS)).meta({
          description:
            "Account connections through which the network's audio catalogue is read (list_audio); []: none.",
        }),
      })
      .nullable()
      .meta({ description: '`audio` (`audioId`, `audioVolume`, `videoVolume`); null: ignored here.' }),
    pinboardNetBoards: z
      .object({
        requiredToPublish: z
          .boolean()
          .meta({ description: 'A target without a board fails when it publishes; a draft saves without one.' }),
      })
      .nullable()
      .meta({ description: 'Board id per account; null: ignored here.' }),
    pinboardNetOptions: z
      .object({ titleMaxLength: positive })
      .nullable()
      .meta({ description: '`pinboardNetOptions` (`{ title }`); null: ignored here.' }),
    linkUrl: z
      .object({
        use: z.enum(['link_card', 'destination']).meta({
          description:
            '`link_card`: published as a link preview card; `destination`: where the post leads when opened.',
        }),
        maxLength: positive.nullable(),
      })
      .nullable()
      .meta({ description: 'How `linkUrl` is used; null: ignored here.' }),
    destination: orNull(DestinationRulesSchema, 'A place chosen per target; null: none (`destinations` is refused).'),
    fields: z.array(OptionFieldSchema).meta({
      description: 'Per-target options (`targetOptions.<accountId>.<key>`); []: none (`targetOptions` is refused).',
    }),
  })
  .meta({ id: 'PostOptionsRules', description: 'Which optional post body fields apply on this network.' })

export type PostOptionsRules = z.infer<typeof PostOptionsRulesSchema>
export type OptionField = z.infer<typeof OptionFieldSchema>
export type OptionFieldType = (typeof OPTION_FIELD_TYPES)[number]
export type DestinationRules = z.infer<typeof DestinationRulesSchema>
