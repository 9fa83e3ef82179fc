/**
 * The photo network (Instagram Graph API, content publishing through containers), on both of its
 * hosts: the page network's Graph host for accounts connected through its login
 * (`SOCIALGRAPH_LOGIN`) and the photo network's own Graph host (`DIRECT_LOGIN`). The network pulls
 * our media from its public URL while building a container; we poll the container through
 * `pending`, publish it once FINISHED, save the post id at once, then read the permalink and post
 * the first comment (publish.ts). Before publishing again, the container's PUBLISHED status says
 * the post exists already (the publish answer was lost): the post is then found among the
 * account's recent posts, never made twice. The network has no documented delete. Its audio
 * search for reels, on the Facebook-login host only, is in audio.ts; insights in insights.ts, the
 * inbox in inbox.ts. Here: the adapter, the accounts a login reaches and token renewal.
 */
import type { NetworkAdapter, RefreshInput, VerifiedAccount, VerifyInput } from '../../adapter'
import { NetworkFailure, credential, expiresWithin } from '../../http'
import { accountGraph, publishSteps } from '../meta/container-publish'
import { refreshLongLivedToken } from '../meta/containers'
import type { AdapterOptions } from '../options'
import { listPhotoAudio } from './audio'
import {
  deletePhotoComment,
  hidePhotoComment,
  listPhotoComments,
  listPhotoMentions,
  listPhotoPosts,
  replyToPhotoComment,
} from './inbox'
import { fetchPhotoInsights } from './insights'
import { PHOTO_HOST, PHOTO_NETWORK, PHOTO_REFRESH_MARGIN_SEC } from './plan'
import { advancePhoto } from './publish'

const N = PHOTO_NETWORK

export function createPhotoAdapter(_options: AdapterOptions): NetworkAdapter {
  return {
    ...publishSteps(advancePhoto),
    fetchInsights: fetchPhotoInsights,
    verifyCredentials,
    listIdentities,
    listAudio: listPhotoAudio,
    listPosts: listPhotoPosts,
    listComments: listPhotoComments,
    listMentions: listPhotoMentions,
    replyToComment: replyToPhotoComment,
    hideComment: hidePhotoComment,
    deleteComment: deletePhotoComment,
    credentialRefresh: {
      isDue: (credentials, now) => expiresWithin(credentials, now, PHOTO_REFRESH_MARGIN_SEC),
      refresh,
    },
  }
}

async function verifyCredentials(input: VerifyInput) {
  const graph = accountGraph(PHOTO_HOST, input)
  const igUserId = credential(input.credentials, 'igUserId')
  if (input.connection === 'DIRECT_LOGIN') {
    const me = await graph.get('me', { fields: 'user_id,username' })
    if (String(me.user_id) !== igUserId)
      throw new NetworkFailure('rejected', `${N}: this token belongs to account ${me.user_id}, not ${igUserId}.`)
    return { username: String(me.username ?? ''), externalId: igUserId, credentials: input.credentials }
  }
  const user = await graph.get(igUserId, { fields: 'username,id' })
  if (String(user.id) !== igUserId)
    throw new NetworkFailure('rejected', `${N}: the token does not reach account ${igUserId}.`)
  return { username: String(user.username ?? ''), externalId: igUserId, credentials: input.credentials }
}

/**
 * A Facebook Login's professional accounts (hosted connect): each Page's `instagram_business_account`
 * from `/me/accounts`, all sharing the member's long-lived user token. An Instagram Login is one account.
 */
async function listIdentities(input: VerifyInput): Promise<VerifiedAccount[]> {
  if (input.connection === 'DIRECT_LOGIN') return [await verifyCredentials(input)]
  const graph = accountGraph(PHOTO_HOST, input)
  const body = await graph.get('me/accounts', {
    fields: 'id,name,instagram_business_account{id,username}',
    limit: '100',
  })
  const accounts: VerifiedAccount[] = []
  for (const page of (body.data ?? []) as Array<{
    instagram_business_account?: { id?: unknown; username?: unknown }
  }>) {
    const ig = page.instagram_business_account
    if (typeof ig?.id !== 'string' || !ig.id) continue
    accounts.push({
      username: typeof ig.username === 'string' && ig.username ? ig.username : ig.id,
      externalId: ig.id,
      credentials: { ...input.credentials, igUserId: ig.id },
    })
  }
  return accounts
}

/**
 * Instagram-login long-lived tokens renew themselves (`ig_refresh_token`), once at least 24 h old
 * and while still valid. Facebook-login tokens have no such endpoint: the account reconnects.
 */
async function refresh(input: RefreshInput) {
  if (input.connection !== 'DIRECT_LOGIN') {
    return {
      status: 'failed' as const,
      kind: 'auth_expired' as const,
      message: `${N}: this login's token cannot be renewed here; reconnect the account.`,
    }
  }
  return refreshLongLivedToken(accountGraph(PHOTO_HOST, input), N, 'ig_refresh_token', input)
}
