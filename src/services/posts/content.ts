import { AppError } from '../../domain/errors'
import type { PostType } from '../../domain/vocabulary'
import type {
  PostContent,
  ValidationAccount,
  ValidationIntent,
  ValidationMedia,
  Violation,
} from '../../domain/post-validation'
import { validatePostContent } from '../../domain/post-validation'
import type { PostRow } from './record'
import type { PostContentInput, RecurrenceInput } from './types'

/** The stored columns of a post's content, as written by create and edit. */
export interface ContentColumns {
  type: PostType
  mediaIds: string[]
  caption: string | null
  captionOverrides: Record<string, string> | null
  threadParts: string[] | null
  firstComment: string | null
  replyToMicropostId: string | null
  quoteMicropostId: string | null
  videoNetOptions: Record<string, any> | null
  audio: any
  pinboardNetBoards: Record<string, string> | null
  pinboardNetOptions: any
  linkUrl: string | null
  recurrence: RecurrenceInput | null
}

const CONTENT_KEYS = [
  'caption',
  'captionOverrides',
  'threadParts',
  'firstComment',
  'replyToMicropostId',
  'quoteMicropostId',
  'videoNetOptions',
  'audio',
  'pinboardNetBoards',
  'pinboardNetOptions',
  'linkUrl',
  'recurrence',
] as const satisfies ReadonlyArray<keyof PostContentInput & keyof ContentColumns>

export function columnsFromRow(row: PostRow): ContentColumns {
  return {
    type: row.type,
    mediaIds: row.mediaIds,
    caption: row.caption,
    captionOverrides: row.captionOverrides ?? null,
    threadParts: row.threadParts ?? null,
    firstComment: row.firstComment,
    replyToMicropostId: row.replyToMicropostId,
    quoteMicropostId: row.quoteMicropostId,
    videoNetOptions: row.videoNetOptions ?? null,
    audio: row.audio ?? null,
    pinboardNetBoards: row.pinboardNetBoards ?? null,
    pinboardNetOptions: row.pinboardNetOptions ?? null,
    linkUrl: row.linkUrl,
    recurrence: (row.recurrence as RecurrenceInput | null) ?? null,
  }
}

/** Applies an edit: a field absent from the input keeps its value, `null` clears it. */
export function mergeContent(
  base: ContentColumns,
  input: PostContentInput & { type?: PostType; mediaIds?: string[] },
): ContentColumns {
  const next: ContentColumns = { ...base }
  if (input.type !== undefined) next.type = input.type
  if (input.mediaIds !== undefined) next.mediaIds = input.mediaIds
  for (const key of CONTENT_KEYS) {
    const value = input[key]
    if (value !== undefined) (next as any)[key] = value
  }
  return next
}

export const EMPTY_CONTENT: Omit<ContentColumns, 'type' | 'mediaIds'> = {
  caption: null,
  captionOverrides: null,
  threadParts: null,
  firstComment: null,
  replyToMicropostId: null,
  quoteMicropostId: null,
  videoNetOptions: null,
  audio: null,
  pinboardNetBoards: null,
  pinboardNetOptions: null,
  linkUrl: null,
  recurrence: null,
}

/** The validator reads every content column but the recurrence (checked here, against the time). */
function toValidationContent(c: ContentColumns): PostContent {
  const { recurrence: _recurrence, ...content } = c
  return content
}

/** Every rule of the registry at once; 422 with one detail per violation (the first one names the code). */
export function assertValidContent(
  content: ContentColumns,
  accounts: ValidationAccount[],
  media: ValidationMedia[],
  intent: ValidationIntent,
  scheduledAt: Date | null,
): void {
  const violations = validatePostContent({ content: toValidationContent(content), accounts, media, intent })
  const recurrence = content.recurrence
  if (recurrence?.endsAt && scheduledAt && new Date(recurrence.endsAt).getTime() <= scheduledAt.getTime()) {
    violations.push({
      code: 'invalid_option',
      path: 'recurrence.endsAt',
      message: "recurrence.endsAt must be after the post's scheduledAt.",
    })
  }
  if (violations.length === 0) return
  const [first] = violations
  const message =
    violations.length === 1
      ? first!.message
      : `${first!.message} (${violations.length - 1} more problem${violations.length > 2 ? 's' : ''} in details)`
  throw new AppError(first!.code, message, {
    details: violations.map(({ code, path, platform, accountId, message: m, limit, actual }: Violation) => ({
      path,
      code,
      message: m,
      ...(platform ? { platform } : {}),
      ...(accountId ? { accountId } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(actual !== undefined ? { actual } : {}),
    })),
  })
}
