/**
 * Whom a Facebook Login can post as on the page network: each Page the member may create content
 * on, from `/me/accounts`, with its own Page token.
 */
import type { VerifiedAccount, VerifyInput } from '../../adapter'
import { graphClient } from './api'

/** Pages of `/me/accounts` read at most, 100 a page. */
export const PAGES_LISTED_MAX = 500

/**
 * The Pages a Facebook Login grants (`/me/accounts`, with the member's user token), each with its
 * own Page token; Pages where the member cannot create content (`tasks` without CREATE_CONTENT) are left out.
 */
export async function listPages(input: VerifyInput): Promise<VerifiedAccount[]> {
  const call = graphClient(input)
  const pages: VerifiedAccount[] = []
  let after: string | null = null
  do {
    const query: Record<string, string> = { fields: 'id,name,access_token,tasks', limit: '100' }
    if (after) query.after = after
    const body = await call('GET', 'me/accounts', { query })
    for (const page of (body.data ?? []) as Array<Record<string, unknown>>) {
      const tasks = Array.isArray(page.tasks) ? page.tasks : null
      if (typeof page.id !== 'string' || typeof page.access_token !== 'string') continue
      if (tasks && !tasks.includes('CREATE_CONTENT')) continue
      pages.push({
        username: typeof page.name === 'string' && page.name ? page.name : page.id,
        externalId: page.id,
        credentials: { accessToken: page.access_token, pageId: page.id },
      })
    }
    after = body.paging?.next ? (body.paging?.cursors?.after ?? null) : null
  } while (after && pages.length < PAGES_LISTED_MAX)
  return pages
}
