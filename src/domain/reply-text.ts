/**
 * A reply to a comment, counted as the network counts a caption (the same text counting and
 * refused characters), against the network's reply budget (`inbox.replyMaxLength`) or, where it
 * has none of its own, the caption's budget for a post without media.
 */
import { checkTextBudget } from './post-validation/budget'
import type { Violation } from './post-validation/types'
import { rulesFor } from './rules/index'
import type { PlatformId } from './vocabulary'

export function replyBudgetOf(platform: PlatformId): number {
  const rules = rulesFor(platform)
  return rules.inbox?.replyMaxLength ?? rules.caption.maxLength
}

/** What is wrong with `text` as a reply on `platform`: empty, over the budget, refused characters. */
export function checkReplyText(platform: PlatformId, text: string): Violation[] {
  if (text.trim() === '')
    return [{ code: 'invalid_option', path: 'text', platform, message: 'The reply has no text: write something.' }]
  const rules = rulesFor(platform)
  return checkTextBudget(
    text,
    { ...rules.caption, maxLength: replyBudgetOf(platform) },
    { code: 'caption_too_long', path: 'text', platform, label: 'The reply', hint: ' Shorten it.' },
  )
}
