/**
 * The video-sharing network (YouTube Data API v3). Every post is one video sent through a
 * resumable upload session and followed through its processing (publish.ts). Here: the adapter,
 * the account's channel, insights from statistics, delete, and the inbox calls (inbox.ts).
 */
import type { Insights, NetworkAdapter, VerifiedAccount, VerifyInput } from '../../adapter'
import { NetworkFailure, asFailedResult, credential, joinUrl, request } from '../../http'
import { metric } from '../../metrics'
import { oauthRefresh } from '../../oauth'
import { googleTokenRenewal } from '../google/oauth'
import type { AdapterOptions } from '../options'
import { NETWORK, REFRESH_MARGIN_SEC, api, failureFrom, listChannels } from './api'
import {
  deleteVideoComment,
  hideVideoComment,
  listChannelVideos,
  listVideoComments,
  replyToVideoComment,
} from './inbox'
import { checkVideo, publishVideo } from './publish'

export function createVideoShareAdapter(options: AdapterOptions): NetworkAdapter {
  return {
    async publish(input) {
      try {
        return await publishVideo(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async checkStatus(input) {
      try {
        return await checkVideo(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async verifyCredentials(input: VerifyInput): Promise<VerifiedAccount> {
      // A hosted connect knows no channel yet: the token's own channel is the account.
      const given = input.credentials.channelId
      const body = await api(
        input.fetch,
        input.baseUrl,
        credential(input.credentials, 'accessToken'),
        '/youtube/v3/channels?part=snippet&mine=true',
        input.now,
      )
      const channel = body.items?.[0]
      if (!channel) throw new NetworkFailure('rejected', `${NETWORK}: this Google account has no YouTube channel.`)
      const channelId = given === undefined ? String(channel.id ?? '') : credential(input.credentials, 'channelId')
      if (!channelId || channel.id !== channelId)
        throw new NetworkFailure(
          'rejected',
          `${NETWORK}: these credentials belong to another channel (${String(channel.id)}, not ${channelId}).`,
        )
      return {
        username: String(channel.snippet?.title ?? ''),
        externalId: channelId,
        credentials: { ...input.credentials, channelId },
      }
    },

    listIdentities: listChannels,
    listPosts: listChannelVideos,
    listComments: listVideoComments,
    replyToComment: replyToVideoComment,
    hideComment: hideVideoComment,
    deleteComment: deleteVideoComment,

    // Renewed on the network's own OAuth origin (`VIDEOSHARE_NET_OAUTH_URL`), as every Google sign-in is.
    credentialRefresh: oauthRefresh(
      googleTokenRenewal(NETWORK, options.origins.VIDEOSHARE_NET_OAUTH_URL, REFRESH_MARGIN_SEC),
      options.clients.VIDEOSHARE_NET,
    ),

    async fetchInsights(input): Promise<Insights> {
      const token = credential(input.credentials, 'accessToken')
      const channelId = credential(input.credentials, 'channelId')
      const channel = (
        await api(
          input.fetch,
          input.baseUrl,
          token,
          `/youtube/v3/channels?part=statistics&id=${encodeURIComponent(channelId)}`,
          input.now,
        )
      ).items?.[0]?.statistics
      // A channel may hide its subscriber count: then the network reports none.
      const followers = channel && !channel.hiddenSubscriberCount ? metric(channel.subscriberCount) : null
      const stats = new Map<string, any>()
      const ids = input.posts.map((p) => p.platformPostId)
      for (let i = 0; i < ids.length; i += 50) {
        const batch = ids
          .slice(i, i + 50)
          .map(encodeURIComponent)
          .join(',')
        const body = await api(
          input.fetch,
          input.baseUrl,
          token,
          `/youtube/v3/videos?part=statistics&id=${batch}`,
          input.now,
        )
        for (const item of body.items ?? []) stats.set(item.id, item.statistics ?? {})
      }
      return {
        followers,
        posts: input.posts.map((p) => {
          const s = stats.get(p.platformPostId)
          return {
            targetId: p.targetId,
            views: metric(s?.viewCount),
            likes: metric(s?.likeCount),
            comments: metric(s?.commentCount),
            shares: null,
            saves: null,
          }
        }),
      }
    },

    async deletePost(input) {
      const answer = await request(
        input.fetch,
        NETWORK,
        joinUrl(input.baseUrl, `/youtube/v3/videos?id=${encodeURIComponent(input.platformPostId)}`),
        {
          method: 'DELETE',
          headers: { authorization: `Bearer ${credential(input.credentials, 'accessToken')}` },
        },
      )
      // Already gone counts as deleted.
      if (answer.status >= 300 && answer.status !== 404) throw failureFrom(answer, input.now)
    },
  }
}
