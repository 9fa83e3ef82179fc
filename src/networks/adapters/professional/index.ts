/**
 * PROFESSIONAL_NET (Posts API, `/rest/*`). One post per target: text in the network's "little"
 * format (every reserved character escaped), with one image or video, 2-20 images as a
 * multi-image post, or, with no media and a `linkUrl`, an article card for the link.
 *
 * Tokens last 60 days and normal apps get no refresh token: an expired one fails as auth_expired
 * before any call, and the member reconnects. The network has no idempotency key, so just before
 * the post is created the progress records that it was sent; a retry after a lost answer first
 * looks for the post among the author's recent ones, and a DUPLICATE_POST refusal naming our own
 * post's URN is taken as that post.
 */
import type { NetworkAdapter, PendingInput, PublishInput, PublishResult, TargetContent } from '../../adapter'
import { asFailedResult, credential, NetworkFailure } from '../../http'
import type { AdapterOptions } from '../options'
import { call, encodeUrn, liveToken, NETWORK, permalinkOf, type Session } from './api'
import { deletePostComment, likePostComment, listAuthorPosts, listPostComments, replyToPostComment } from './inbox'
import { listProfessionalIdentities } from './identities'
import { prepareMedia } from './media'
import { escapeLittleText, unescapeLittleText } from './text'

/** How the recent-posts lookup reads the author's feed. */
const RECENT_POSTS = 10
const POST_DEFAULTS = {
  visibility: 'PUBLIC',
  distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
  lifecycleState: 'PUBLISHED',
  isReshareDisabledByAuthor: false,
} as const
const URN_IN_TEXT = /urn:li:(?:share|ugcPost):[A-Za-z0-9_-]+/

const published = (urn: string): PublishResult => ({
  status: 'published',
  platformPostId: urn,
  permalink: permalinkOf(urn),
})

const sessionOf = (input: {
  credentials: Record<string, unknown>
  fetch: typeof fetch
  baseUrl: string
  now: Date
}): Session => ({
  fetch: input.fetch,
  baseUrl: input.baseUrl,
  token: liveToken(input.credentials, input.now),
  now: input.now,
})

/** The post's `content`, from the uploaded assets' URNs or the link. */
function contentOf(content: TargetContent, urns: string[]): Record<string, unknown> | undefined {
  const alt = (i: number) => content.media[i]?.altText ?? undefined
  if (urns.length > 1)
    return { multiImage: { images: urns.map((id, i) => ({ id, ...(alt(i) ? { altText: alt(i) } : {}) })) } }
  if (urns.length === 1)
    return { media: { id: urns[0], ...(content.media[0]?.type === 'IMAGE' && alt(0) ? { altText: alt(0) } : {}) } }
  if (content.linkUrl) {
    let title = content.linkUrl
    try {
      title = new URL(content.linkUrl).hostname
    } catch {
      // keep the URL itself as the card's title
    }
    return { article: { source: content.linkUrl, title } }
  }
  return undefined
}

/** Our post among the author's most recent ones (same commentary), or null. */
async function findOwnPost(session: Session, author: string, text: string): Promise<string | null> {
  const answer = await call(
    session,
    'GET',
    `/rest/posts?author=${encodeURIComponent(author)}&q=author&count=${RECENT_POSTS}&sortBy=LAST_MODIFIED`,
  )
  const elements: Array<{ id?: unknown; commentary?: unknown }> = Array.isArray(answer.body?.elements)
    ? answer.body.elements
    : []
  const found = elements.find(
    (e) =>
      typeof e.commentary === 'string' &&
      (e.commentary === escapeLittleText(text) || unescapeLittleText(e.commentary) === text),
  )
  return found && typeof found.id === 'string' ? found.id : null
}

async function publish(input: PublishInput): Promise<PublishResult> {
  try {
    const session = sessionOf(input)
    const author = credential(input.credentials, 'authorUrn')
    if (input.progress.headId) return published(input.progress.headId)
    const media = await prepareMedia(session, input, author)
    if (!media.ready) return { status: 'pending', state: { step: 'media' }, checkAfterSec: media.checkAfterSec }
    const sentBefore = input.progress.postSent === true
    if (sentBefore) {
      // A lookup the network refuses is no answer: the network's duplicate refusal still guards the post.
      const existing = await findOwnPost(session, author, input.content.text).catch((err) => {
        if (err instanceof NetworkFailure) return null
        throw err
      })
      if (existing) {
        await input.saveProgress({ headId: existing, headPermalink: permalinkOf(existing) })
        return published(existing)
      }
    }
    await input.saveProgress({ postSent: true })
    const content = contentOf(input.content, media.urns)
    let urn: string | null
    try {
      const answer = await call(session, 'POST', '/rest/posts', {
        json: {
          author,
          commentary: escapeLittleText(input.content.text),
          ...POST_DEFAULTS,
          ...(content ? { content } : {}),
        },
      })
      urn = answer.headers.get('x-restli-id') ?? (typeof answer.body?.id === 'string' ? answer.body.id : null)
    } catch (err) {
      // Our earlier attempt went out and its answer was lost: the refusal names that post.
      const duplicateOf =
        sentBefore && err instanceof NetworkFailure && /duplicate/i.test(err.message)
          ? URN_IN_TEXT.exec(err.message)?.[0]
          : undefined
      if (!duplicateOf) throw err
      urn = duplicateOf
    }
    if (!urn) throw new NetworkFailure('transient', `${NETWORK} created the post but did not return its id.`)
    await input.saveProgress({ headId: urn, headPermalink: permalinkOf(urn) })
    return published(urn)
  } catch (err) {
    return asFailedResult(err)
  }
}

/**
 * Pending uploads continue through `publish`. An unconfirmed publish is settled from the author's
 * recent posts: found is published, not there is absent (a retry is still guarded by the network's
 * duplicate refusal); a lookup the network refuses (member posts need r_member_social) cannot tell.
 */
async function checkStatus(input: PendingInput): Promise<PublishResult> {
  if (!input.unconfirmed) return publish(input)
  try {
    if (input.progress.headId) return published(input.progress.headId)
    if (input.progress.postSent !== true) return { status: 'absent' }
    const session = sessionOf(input)
    const existing = await findOwnPost(session, credential(input.credentials, 'authorUrn'), input.content.text)
    if (!existing) return { status: 'absent' }
    await input.saveProgress({ headId: existing, headPermalink: permalinkOf(existing) })
    return published(existing)
  } catch (err) {
    const failed = asFailedResult(err)
    return failed.kind === 'auth_expired'
      ? failed
      : {
          status: 'failed',
          kind: 'transient',
          message: `${NETWORK} could not say whether the post went out (${failed.message}).`,
        }
  }
}

export function createProfessionalAdapter(_options: AdapterOptions): NetworkAdapter {
  return {
    publish,
    checkStatus,
    listPosts: listAuthorPosts,
    listComments: listPostComments,
    replyToComment: replyToPostComment,
    deleteComment: deletePostComment,
    likeComment: likePostComment,
    listIdentities: (input) => listProfessionalIdentities(sessionOf(input), input),
    async verifyCredentials(input) {
      const session = sessionOf(input)
      if (input.credentials.authorUrn === undefined) {
        // A hosted connect signs a member in: the token's own member is the author.
        const me = (await call(session, 'GET', '/v2/userinfo')).body ?? {}
        if (typeof me.sub !== 'string' || !me.sub)
          throw new NetworkFailure('rejected', `${NETWORK}: the token names no member.`)
        const authorUrn = `urn:li:person:${me.sub}`
        const username = typeof me.name === 'string' && me.name ? me.name : me.sub
        return { username, externalId: authorUrn, credentials: { ...input.credentials, authorUrn } }
      }
      const author = credential(input.credentials, 'authorUrn')
      const [, kind, id] = /^urn:li:(person|organization):(.+)$/.exec(author) ?? []
      if (!kind || !id)
        throw new NetworkFailure('rejected', 'authorUrn must be urn:li:person:<id> or urn:li:organization:<id>.')
      if (kind === 'person') {
        const me = (await call(session, 'GET', '/v2/userinfo')).body ?? {}
        if (me.sub !== id)
          throw new NetworkFailure(
            'rejected',
            `${NETWORK}: the token belongs to member ${String(me.sub)}, not ${author}; connect with that member's token.`,
          )
        return {
          username: typeof me.name === 'string' && me.name ? me.name : id,
          externalId: author,
          credentials: { ...input.credentials },
        }
      }
      const org = (await call(session, 'GET', `/rest/organizations/${encodeURIComponent(id)}`)).body ?? {}
      return {
        username: typeof org.localizedName === 'string' && org.localizedName ? org.localizedName : id,
        externalId: author,
        credentials: { ...input.credentials },
      }
    },
    async deletePost(input) {
      const session: Session = {
        fetch: input.fetch,
        baseUrl: input.baseUrl,
        token: liveToken(input.credentials, input.now),
        now: input.now,
      }
      await call(session, 'DELETE', `/rest/posts/${encodeUrn(input.platformPostId)}`)
    },
  }
}
