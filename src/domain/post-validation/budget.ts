/** One piece of text against one registry text budget: length, byte cap, refused characters. */
import type { ErrorCode } from '../errors'
import { countText, forbiddenCharactersIn, utf8Length } from '../text-count'
import type { PlatformId } from '../vocabulary'
import type { TextBudget } from '../rules/schema'
import { countingNote, unitOf } from './format'
import type { Violation } from './types'

export interface BudgetTarget {
  /** Code for text over the budget (`caption_too_long`, `thread_too_long`...). */
  code: ErrorCode
  path: string
  platform: PlatformId
  /** How the text is named in a message: "Caption", "Thread part 3". */
  label: string
  /** Appended to the limit, e.g. " for a post with media". */
  limitNote?: string
  /** What to do about it, e.g. " Shorten it or set captionOverrides.MICROBLOG_NET." */
  hint?: string
}

export function checkTextBudget(text: string, budget: TextBudget, target: BudgetTarget): Violation[] {
  const out: Violation[] = []
  const { code, path, platform, label } = target
  const hint = target.hint ?? ''
  const actual = countText(text, budget)
  if (actual > budget.maxLength) {
    out.push({
      code,
      path,
      platform,
      limit: budget.maxLength,
      actual,
      message: `${label} is ${actual} ${unitOf(budget)}; ${platform} allows ${budget.maxLength}${target.limitNote ?? ''}${countingNote(budget)}.${hint}`,
    })
  }
  if (budget.maxBytes !== null) {
    const bytes = utf8Length(text)
    if (bytes > budget.maxBytes) {
      out.push({
        code,
        path,
        platform,
        limit: budget.maxBytes,
        actual: bytes,
        message: `${label} is ${bytes} bytes in UTF-8; ${platform} allows ${budget.maxBytes} bytes.${hint}`,
      })
    }
  }
  const refused = forbiddenCharactersIn(text, budget.forbiddenCharacters)
  if (refused.length > 0) {
    out.push({
      code: 'invalid_option',
      path,
      platform,
      message: `${label} contains ${refused.map((c) => `"${c}"`).join(' and ')}, which ${platform} refuses; remove ${refused.length > 1 ? 'them' : 'it'}.`,
    })
  }
  return out
}
