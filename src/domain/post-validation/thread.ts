/**
 * `threadParts`: follow-ups published after the head post on platforms with a thread model.
 * Too many parts, or a part over the platform's budget, is rejected (`thread_too_long`),
 * never truncated. Platforms without a thread model do not publish the parts, so they set
 * no limit on them.
 */
import { rulesFor } from '../rules/index'
import { checkTextBudget } from './budget'
import type { ValidationContext, Violation } from './types'

export function checkThread(ctx: ValidationContext): Violation[] {
  const parts = ctx.content.threadParts ?? []
  if (parts.length === 0) return []
  const threaded = ctx.platforms.filter((p) => rulesFor(p).thread !== null)
  if (threaded.length === 0) return []

  const out: Violation[] = []
  parts.forEach((part, i) => {
    if (part.trim() === '') {
      out.push({
        code: 'invalid_option',
        path: `threadParts.${i}`,
        message: `Thread part ${i + 1} (threadParts.${i}) is empty; networks refuse empty posts. Remove it or write it.`,
      })
    }
  })
  for (const platform of threaded) {
    const thread = rulesFor(platform).thread
    if (thread === null) continue
    if (parts.length > thread.maxParts) {
      out.push({
        code: 'thread_too_long',
        path: 'threadParts',
        platform,
        limit: thread.maxParts,
        actual: parts.length,
        message: `The thread has ${parts.length} follow-up parts; ${platform} allows ${thread.maxParts}. Remove ${parts.length - thread.maxParts} or split it into several posts.`,
      })
    }
    parts.forEach((part, i) => {
      out.push(
        ...checkTextBudget(part, thread.part, {
          code: 'thread_too_long',
          path: `threadParts.${i}`,
          platform,
          label: `Thread part ${i + 1} (threadParts.${i})`,
          hint: ' Shorten it or split it into two parts.',
        }),
      )
    })
  }
  return out
}
