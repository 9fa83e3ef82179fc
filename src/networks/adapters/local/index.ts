/**
 * The local business network (Google Business Profile). An account is one business location a
 * Google sign-in manages; a post is a local post on it (an update, an event, an offer or an
 * alert, with a button and one photo), created exactly once (publish.ts), followed while the
 * network processes it, and deleted on request. The network reports no per-post insights any more,
 * so none are read. Live local posts are imported and reviews are read into the inbox and answered
 * (inbox.ts).
 */
import type { NetworkAdapter } from '../../adapter'
import { NetworkFailure, asFailedResult, credential, request } from '../../http'
import { oauthRefresh } from '../../oauth'
import { googleTokenRenewal } from '../google/oauth'
import type { AdapterOptions } from '../options'
import { NETWORK, REFRESH_MARGIN_SEC, localFailure, v4, type LocalOrigins } from './api'
import { listLocationIdentities, verifyLocation } from './identities'
import { answerLocalReview, listLocalPosts, listLocalReviews } from './inbox'
import { checkLocalPost, publishLocalPost } from './publish'

/** A local post's v4 name, the id the engine keeps for it. */
const POST_NAME = /^accounts\/[\w-]+\/locations\/[\w-]+\/localPosts\/[\w-]+$/

export function createLocalAdapter(options: AdapterOptions): NetworkAdapter {
  // The posts API is the account's own origin (`baseUrl`); accounts and locations have theirs.
  const origins = (baseUrl: string): LocalOrigins => ({
    posts: baseUrl,
    accounts: options.origins.LOCAL_NET_ACCOUNTS_URL ?? '',
    locations: options.origins.LOCAL_NET_LOCATIONS_URL ?? '',
  })
  return {
    async publish(input) {
      try {
        return await publishLocalPost(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async checkStatus(input) {
      try {
        return await checkLocalPost(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    verifyCredentials: (input) => verifyLocation(input, origins(input.baseUrl)),

    listIdentities: (input) => listLocationIdentities(input, origins(input.baseUrl)),

    listPosts: listLocalPosts,
    // Reviews are about the location, not a post: the inbox reads them as mentions (inbox.ts).
    listMentions: listLocalReviews,
    replyToComment: answerLocalReview,

    credentialRefresh: oauthRefresh(
      googleTokenRenewal(NETWORK, options.origins.LOCAL_NET_OAUTH_URL ?? '', REFRESH_MARGIN_SEC),
      options.clients.LOCAL_NET,
    ),

    async deletePost(input) {
      if (!POST_NAME.test(input.platformPostId))
        throw new NetworkFailure('rejected', `${NETWORK}: ${input.platformPostId} is not a local post's name.`)
      const answer = await request(input.fetch, NETWORK, v4(input.baseUrl, input.platformPostId), {
        method: 'DELETE',
        headers: { authorization: `Bearer ${credential(input.credentials, 'accessToken')}` },
      })
      // Already gone is what the user asked for.
      if (answer.status >= 300 && answer.status !== 404) throw localFailure(answer, input.now)
    },
  }
}
