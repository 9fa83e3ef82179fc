/**
 * The microblog network's long posts: its user lookup reports the account's paid tier
 * (`user.fields=subscription_type`: `Basic`, `Premium`, `PremiumPlus` or `None`), and the Premium
 * tiers may post up to 25,000 weighted characters instead of 280. Read at connect and after every
 * token renewal, so an account that subscribes or lapses gets its budget at the next renewal.
 */
import type { CredentialRefresh } from '../../adapter'
import { credential } from '../../http'
import { api } from './api'

/** Tiers whose posts may be long; Basic is left out until the network documents its budget. */
const LONG_POST_TIERS = new Set(['Premium', 'PremiumPlus'])
export const LONG_POST_MAX_LENGTH = 25_000

/** The path of the user lookup that reports the tier (and the user id and name). */
export const ME_WITH_TIER = '/2/users/me?user.fields=subscription_type'

/** The caption budget of a user object: the long-post budget for a Premium tier; null otherwise (the platform's). */
export function captionBudgetOf(user: { subscription_type?: unknown } | undefined): number | null {
  return LONG_POST_TIERS.has(String(user?.subscription_type ?? '')) ? LONG_POST_MAX_LENGTH : null
}

/**
 * A renewal that also reads the tier with the new token. A failed lookup keeps the renewed
 * credentials and leaves the stored budget as it was (the token matters more than the budget).
 */
export function withBudgetLookup(renewal: CredentialRefresh): CredentialRefresh {
  return {
    isDue: renewal.isDue,
    async refresh(input) {
      const result = await renewal.refresh(input)
      if (result.status !== 'refreshed') return result
      try {
        const x = api(input.fetch, input.baseUrl, credential(result.credentials, 'accessToken'), input.now)
        const me = await x.call('GET', ME_WITH_TIER)
        return { ...result, captionMaxLength: captionBudgetOf(me.data) }
      } catch {
        return result
      }
    },
  }
}
