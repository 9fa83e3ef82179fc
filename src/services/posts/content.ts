import { AppError } from '../../domain/errors'
import { CONTENT_FIELD_NAMES, type ContentFields, type PostContent } from '../../domain/post-content'
import type { ValidationAccount, ValidationIntent, ValidationMedia, Violation } from '../../domain/post-validation'
import { validatePostContent } from '../../domain/post-validation'
import type { PostRow } from './record'

/** A stored post's content fields: every field present, `null` where unset. */
export function contentFieldsOf(row: PostRow): ContentFields {
  return Object.fromEntries(CONTENT_FIELD_NAMES.map((name) => [name, row[name] ?? null])) as ContentFields
}

/** A stored post's whole content, as create and edit wrote it. */
export function contentOf(row: PostRow): PostContent {
  return { type: row.type, mediaIds: row.mediaIds, ...contentFieldsOf(row) }
}

/**
 * Every rule of the registry at once, and the series' end against the post's time: what create,
 * edit, publish now and the dry run check. `[]` when the content may be written.
 */
export function contentViolations(
  content: PostContent,
  accounts: ValidationAccount[],
  media: ValidationMedia[],
  intent: ValidationIntent,
  scheduledAt: Date | null,
): Violation[] {
  const violations = validatePostContent({ content, accounts, media, intent })
  const recurrence = content.recurrence
  if (recurrence?.endsAt && scheduledAt && new Date(recurrence.endsAt).getTime() <= scheduledAt.getTime()) {
    violations.push({
      code: 'invalid_option',
      path: 'recurrence.endsAt',
      message: "recurrence.endsAt must be after the post's scheduledAt.",
    })
  }
  return violations
}

/** `contentViolations`, as one 422 with one detail per violation (the first one names the code). */
export function assertValidContent(
  content: PostContent,
  accounts: ValidationAccount[],
  media: ValidationMedia[],
  intent: ValidationIntent,
  scheduledAt: Date | null,
): void {
  const violations = contentViolations(content, accounts, media, intent, scheduledAt)
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
