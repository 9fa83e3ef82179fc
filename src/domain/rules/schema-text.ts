/**
 * The text part of the rules registry: how a network counts text (`CaptionCounting`), the budget
 * of one piece of text (`TextBudget`) and the caption, title and thread rules built on it, and
 * how the network shows a caption (`CaptionFormatting`).
 */
import { z } from 'zod'
import { count, note, orNull, positive } from './schema-fields'
import { MediaKindSchema } from './schema-media'
import { CAPTION_COUNTINGS } from './schema-names'

export const CaptionCountingSchema = z.enum(CAPTION_COUNTINGS).meta({
  id: 'CaptionCounting',
  description: [
    'How the network counts text against `maxLength`.',
    "`weighted`: text is NFC-normalised; code points in U+0000-U+10FF, U+2000-U+200D, U+2010-U+201F and U+2032-U+2037 count 1, every other code point 2, a whole emoji sequence counts 2, and every URL counts `urlWeight` (the microblog network's published counting configuration, version 3).",
    '`graphemes`: user-perceived characters (extended grapheme clusters, as `Intl.Segmenter` splits them).',
    '`utf16`: UTF-16 code units (JavaScript `string.length`).',
    '`characters`: Unicode code points.',
    '`characters_emoji_bytes`: code points, except that each emoji counts as many as its UTF-8 bytes (a ZWJ sequence as a whole).',
    '`utf8_bytes`: bytes of the UTF-8 encoding.',
  ].join(' '),
})

/** A budget for one piece of text: a caption, a thread part, a title. */
export const TextBudgetSchema = z
  .object({
    maxLength: positive.meta({ description: 'Most units allowed, counted as `counting` says.' }),
    counting: CaptionCountingSchema,
    urlWeight: positive.nullable().meta({
      description: 'Every URL counts exactly this many units whatever its length; null: URLs count like other text.',
    }),
    maxBytes: positive.nullable().meta({ description: 'A second cap on the UTF-8 byte length; null: none.' }),
    normalization: z
      .enum(['NFC'])
      .nullable()
      .meta({ description: 'Unicode normalisation applied before counting; null: counted as sent.' }),
    mentionDomainFree: z
      .boolean()
      .meta({ description: 'True when a `@user@domain` mention counts only its `@user` part.' }),
    forbiddenCharacters: z
      .array(z.string())
      .meta({ description: 'Characters the network refuses in this text.', example: ['<', '>'] }),
  })
  .meta({ id: 'TextBudget' })

export const CaptionRulesSchema = TextBudgetSchema.extend({
  maxLengthWithImages: positive
    .nullable()
    .meta({ description: 'Budget when the post carries images (and no video); null: `maxLength`.' }),
  maxLengthWithVideo: positive
    .nullable()
    .meta({ description: 'Budget when the post carries a video; null: `maxLength`.' }),
  maxHashtags: count.nullable().meta({ description: 'Most hashtags in one caption; null: no limit.' }),
  maxMentions: count.nullable().meta({ description: 'Most @mentions in one caption; null: no limit.' }),
  note,
}).meta({
  id: 'CaptionRules',
  description:
    "The caption budget: `caption`, or the platform's entry in `captionOverrides`. Over the budget is rejected (`caption_too_long`), never truncated.",
})

export const CaptionFormattingSchema = z
  .object({
    markdown: z.boolean().meta({ description: 'Markdown in the caption is rendered; false: shown as typed.' }),
    links: z.enum(['clickable', 'shortened', 'not_clickable']).meta({
      description: '`shortened`: clickable, wrapped in a short link and counted as `caption.urlWeight`.',
    }),
    lineBreaks: z.boolean().meta({ description: 'Line breaks are kept.' }),
    hashtags: z.string().nullable().meta({ description: 'Syntax of a linked hashtag; null: not linked.' }),
    mentions: z.string().nullable().meta({ description: 'Syntax of a linked mention; null: not linked.' }),
    note,
  })
  .meta({ id: 'CaptionFormatting', description: 'How the network shows the caption.' })

export const TitleRulesSchema = TextBudgetSchema.extend({
  required: z.boolean().meta({ description: 'The network needs a non-empty title.' }),
  field: z.enum(['pinboardNetOptions.title', 'title']).nullable().meta({
    description:
      "Body field that sets the title explicitly: `title` is the post body's top-level `title` (over the budget: `title_too_long`), `pinboardNetOptions.title` the pin title (over the budget: `pin_title_too_long`); null: always derived.",
  }),
  derivedFrom: z
    .enum(['caption_first_line'])
    .meta({ description: 'Where the title comes from when no field sets it: the first line of the caption.' }),
  derivedOverflow: z
    .enum(['shorten'])
    .meta({ description: 'A derived title over the budget is shortened at the last whole word that fits.' }),
  media: orNull(MediaKindSchema, 'The title exists only for posts carrying this kind of media; null: every post.'),
  note,
}).meta({ id: 'TitleRules', description: 'A title the network publishes beside the caption.' })

export const ThreadRulesSchema = z
  .object({
    maxParts: positive.meta({
      description:
        'Most entries in `threadParts` (follow-ups after the head post). More is rejected (`thread_too_long`), never truncated.',
    }),
    part: TextBudgetSchema.meta({ description: 'Budget of each follow-up; parts are text only.' }),
    note,
  })
  .meta({ id: 'ThreadRules' })

export type CaptionCounting = z.infer<typeof CaptionCountingSchema>
export type TextBudget = z.infer<typeof TextBudgetSchema>
export type CaptionRules = z.infer<typeof CaptionRulesSchema>
export type CaptionFormatting = z.infer<typeof CaptionFormattingSchema>
export type TitleRules = z.infer<typeof TitleRulesSchema>
export type ThreadRules = z.infer<typeof ThreadRulesSchema>
