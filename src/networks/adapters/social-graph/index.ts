/**
 * The page-based social network (Facebook Pages, Graph API) through a Page access token. A Page
 * token made from a long-lived user token does not expire, so there is no refresh: code 190 means
 * the user must reconnect. The publish is in publish.ts (its reel and story formats in
 * formats.ts), the Pages a login grants in identities.ts, insights in insights.ts, the inbox in
 * inbox.ts; here: the adapter, the account check and delete.
 */
import type { NetworkAdapter } from '../../adapter'
import { asFailedResult, credential } from '../../http'
import type { AdapterOptions } from '../options'
import { graphClient, isMissingObject } from './api'
import { listPages } from './identities'
import {
  deletePageComment,
  hidePageComment,
  likePageComment,
  listPageComments,
  listPageMentions,
  listPagePosts,
  replyToPageComment,
} from './inbox'
import { insights } from './insights'
import { checkPost, publishPost } from './publish'

export function createSocialGraphAdapter(_options: AdapterOptions): NetworkAdapter {
  return {
    async verifyCredentials(input) {
      const call = graphClient({ ...input })
      const pageId = credential(input.credentials, 'pageId')
      const page = await call('GET', pageId, { query: { fields: 'id,name' } })
      return {
        username: String(page.name ?? page.id ?? pageId),
        externalId: String(page.id ?? pageId),
        credentials: { ...input.credentials },
      }
    },

    listIdentities: listPages,
    listPosts: listPagePosts,
    listComments: listPageComments,
    listMentions: listPageMentions,
    replyToComment: replyToPageComment,
    hideComment: hidePageComment,
    deleteComment: deletePageComment,
    likeComment: likePageComment,

    async publish(input) {
      try {
        return await publishPost(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async checkStatus(input) {
      try {
        return await checkPost(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async fetchInsights(input) {
      return insights(input)
    },

    async deletePost(input) {
      const call = graphClient(input)
      try {
        await call('DELETE', input.platformPostId)
      } catch (err) {
        if (!isMissingObject(err)) throw err
      }
    },
  }
}
