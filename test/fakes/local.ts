/**
 * A loopback fake of the local business network (Google Business Profile) from its references:
 * Google's OAuth endpoints (authorization code with PKCE, the client in the form, refresh,
 * revocation), the Account Management API's accounts (20 a page at most), the Business
 * Information API's locations (`readMask` required, 100 a page at most), and the My Business API
 * v4's local posts (created with their photo fetched from `sourceUrl` and checked, listed 100 a
 * page at most, processed for a few reads, deleted) and reviews (50 a page, replies up to 4,096
 * bytes, verified locations only). Errors are Google's `{ error: { code, message, status } }`.
 * Knobs: failNextError (any API call), expireAccessToken, processingPolls, rejectProcessing.
 */
import { oauthFake } from './oauth-provider'
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'
import { googleError, isPhoto, localPostRefusal } from './local-validation'

export interface FakeLocation {
  id: string
  /** The accounts through which the location is reached (personal, a location group...). */
  accountIds: string[]
  title: string
  locality: string | null
  verified: boolean
}

export interface FakeLocalPost {
  name: string
  body: Record<string, any>
  createTime: string
  state: 'PROCESSING' | 'LIVE' | 'REJECTED'
  readsLeft: number
  photo: Buffer | null
}

export interface FakeReview {
  reviewId: string
  locationId: string
  starRating: string
  comment: string
  reviewer: string | null
  reply: { comment: string; updateTime: string } | null
  /** When it was written (a fixed day when not given). */
  createTime?: string
}

const CLIENT = { id: 'gbp_client', secret: 'gbp_secret' }
const page = <T>(items: T[], req: FakeRequest, size: number) => {
  const start = Number(req.query.get('pageToken') ?? 0)
  const slice = items.slice(start, start + size)
  return { slice, next: start + size < items.length ? String(start + size) : null }
}

export async function startLocalFake(options: { locations?: FakeLocation[] } = {}) {
  const state = {
    accessToken: 'gbp_access_1',
    refreshToken: 'gbp_refresh_1',
    tokenSerial: 1,
    accounts: [
      { name: 'accounts/101', accountName: 'Ada Baker', type: 'PERSONAL' },
      { name: 'accounts/202', accountName: 'Bakery Group', type: 'LOCATION_GROUP' },
    ],
    locations: options.locations ?? [
      { id: '9001', accountIds: ['101'], title: 'Corner Bakery', locality: 'Springfield', verified: true },
      { id: '9002', accountIds: ['101', '202'], title: 'Harbour Bakery', locality: 'Shelbyville', verified: true },
      { id: '9003', accountIds: ['202'], title: 'Night Bakery', locality: null, verified: false },
    ],
    posts: new Map<string, FakeLocalPost>(),
    reviews: [] as FakeReview[],
    /** Reads of a new post before it is LIVE (0: created LIVE). */
    processingPolls: 0,
    /** A processed post ends REJECTED instead of LIVE. */
    rejectProcessing: false,
    failures: [] as Array<{ path?: RegExp; reply: FakeReply }>,
    clock: () => new Date(),
    serial: 0,
  }
  const oauth = oauthFake({ client: CLIENT, clientAuth: 'post', pkce: true, expiresIn: 3599 }, (issued) => {
    state.accessToken = issued.accessToken
    state.refreshToken = issued.refreshToken
  })

  const guarded =
    (handler: (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>) =>
    async (req: FakeRequest, params: string[]): Promise<FakeReply> => {
      const i = state.failures.findIndex((f) => !f.path || f.path.test(`${req.method} ${req.path}`))
      if (i >= 0) return state.failures.splice(i, 1)[0]!.reply
      if (req.headers.authorization !== `Bearer ${state.accessToken}`)
        return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.')
      return handler(req, params)
    }
  /** The location reached through the account, or the refusal. */
  const located = (accountId: string, locationId: string): FakeLocation | FakeReply => {
    const location = state.locations.find((l) => l.id === locationId)
    if (!location) return googleError(404, 'NOT_FOUND', 'Requested entity was not found.')
    if (!location.accountIds.includes(accountId))
      return googleError(403, 'PERMISSION_DENIED', 'The caller does not have permission')
    return location
  }
  const isReply = (x: FakeLocation | FakeReply): x is FakeReply => !('accountIds' in x)
  const locationResource = (l: FakeLocation, mask: string[]) =>
    Object.fromEntries(
      Object.entries({
        name: `locations/${l.id}`,
        title: l.title,
        storefrontAddress: l.locality ? { addressLines: ['1 Main Street'], locality: l.locality } : undefined,
      }).filter(([k, v]) => mask.includes(k) && v !== undefined),
    )
  const readMask = (req: FakeRequest) => (req.query.get('readMask') ?? '').split(',').filter(Boolean)
  const postResource = (p: FakeLocalPost) => ({
    ...p.body,
    name: p.name,
    createTime: p.createTime,
    updateTime: p.createTime,
    state: p.state,
    ...(p.state === 'LIVE'
      ? { searchUrl: `https://local.google.com/place?use=posts&lpsid=${p.name.split('/').pop()}` }
      : {}),
  })
  const fetchPhoto = async (url: string): Promise<Buffer | null> => {
    const res = await fetch(url).catch(() => null)
    if (!res?.ok) return null
    const bytes = Buffer.from(await res.arrayBuffer())
    return isPhoto(bytes) ? bytes : null
  }

  const createPost = async (req: FakeRequest, [a, l]: string[]): Promise<FakeReply> => {
    const location = located(a!, l!)
    if (isReply(location)) return location
    const body = req.json()
    const refused = localPostRefusal(body)
    if (refused) return refused
    let photo: Buffer | null = null
    if (body.media?.[0]) {
      photo = await fetchPhoto(body.media[0].sourceUrl)
      if (!photo)
        return googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.', [
          { field: 'media.source_url', message: 'Failed to fetch the photo from the provided URL.' },
        ])
    }
    const post: FakeLocalPost = {
      name: `accounts/${a}/locations/${l}/localPosts/70${++state.serial}`,
      body,
      createTime: state.clock().toISOString(),
      state: state.processingPolls > 0 ? 'PROCESSING' : 'LIVE',
      readsLeft: state.processingPolls,
      photo,
    }
    state.posts.set(post.name, post)
    return { json: postResource(post) }
  }

  const routes: Array<
    [string, RegExp | string, (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>]
  > = [
    ['GET', '/o/oauth2/v2/auth', (req) => oauth.authorize(req)],
    ['POST', '/revoke', (req) => oauth.revoke(req)],
    ['POST', '/token', (req) => token(req)],
    [
      'GET',
      '/v1/accounts',
      guarded((req) => {
        const { slice, next } = page(state.accounts, req, Math.min(Number(req.query.get('pageSize') ?? 20), 20))
        return { json: { accounts: slice, ...(next ? { nextPageToken: next } : {}) } }
      }),
    ],
    [
      'GET',
      /^\/v1\/accounts\/(\d+)\/locations$/,
      guarded((req, [a]) => {
        const mask = readMask(req)
        if (mask.length === 0)
          return googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.', [
            { field: 'read_mask', message: 'read_mask is required' },
          ])
        const size = Number(req.query.get('pageSize') ?? 10)
        if (size > 100) return googleError(400, 'INVALID_ARGUMENT', 'page_size must be at most 100.')
        const mine = state.locations.filter((l) => l.accountIds.includes(a!))
        const { slice, next } = page(mine, req, size)
        return {
          json: { locations: slice.map((l) => locationResource(l, mask)), ...(next ? { nextPageToken: next } : {}) },
        }
      }),
    ],
    [
      'GET',
      /^\/v1\/locations\/(\d+)$/,
      guarded((req, [l]) => {
        const location = state.locations.find((x) => x.id === l)
        if (!location) return googleError(404, 'NOT_FOUND', 'Requested entity was not found.')
        if (readMask(req).length === 0) return googleError(400, 'INVALID_ARGUMENT', 'read_mask is required')
        return { json: locationResource(location, readMask(req)) }
      }),
    ],
    ['POST', /^\/v4\/accounts\/(\d+)\/locations\/(\d+)\/localPosts$/, guarded(createPost)],
    [
      'GET',
      /^\/v4\/accounts\/(\d+)\/locations\/(\d+)\/localPosts$/,
      guarded((req, [a, l]) => {
        const location = located(a!, l!)
        if (isReply(location)) return location
        const size = Math.min(Number(req.query.get('pageSize') ?? 20), 100)
        const mine = [...state.posts.values()]
          .filter((p) => p.name.startsWith(`accounts/${a}/locations/${l}/`))
          .reverse()
        const { slice, next } = page(mine, req, size)
        return { json: { localPosts: slice.map(postResource), ...(next ? { nextPageToken: next } : {}) } }
      }),
    ],
    [
      'GET',
      /^\/v4\/(accounts\/\d+\/locations\/\d+\/localPosts\/\d+)$/,
      guarded((_req, [name]) => {
        const post = state.posts.get(name!)
        if (!post) return googleError(404, 'NOT_FOUND', 'Requested entity was not found.')
        if (post.state === 'PROCESSING' && post.readsLeft-- <= 0)
          post.state = state.rejectProcessing ? 'REJECTED' : 'LIVE'
        return { json: postResource(post) }
      }),
    ],
    [
      'DELETE',
      /^\/v4\/(accounts\/\d+\/locations\/\d+\/localPosts\/\d+)$/,
      guarded((_req, [name]) =>
        state.posts.delete(name!) ? { json: {} } : googleError(404, 'NOT_FOUND', 'Requested entity was not found.'),
      ),
    ],
    ['GET', /^\/v4\/accounts\/(\d+)\/locations\/(\d+)\/reviews$/, guarded((req, p) => listReviews(req, p))],
    ['PUT', /^\/v4\/accounts\/(\d+)\/locations\/(\d+)\/reviews\/([\w-]+)\/reply$/, guarded((req, p) => reply(req, p))],
  ]

  function token(req: FakeRequest): FakeReply {
    const form = req.form()
    if (form.get('grant_type') === 'authorization_code') return oauth.exchange(req)
    if (form.get('client_id') !== CLIENT.id || form.get('client_secret') !== CLIENT.secret)
      return { status: 401, json: { error: 'invalid_client', error_description: 'The OAuth client was not found.' } }
    if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== state.refreshToken)
      return { status: 400, json: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } }
    state.accessToken = `gbp_access_${++state.tokenSerial}`
    return {
      json: {
        access_token: state.accessToken,
        expires_in: 3599,
        scope: 'https://www.googleapis.com/auth/business.manage',
        token_type: 'Bearer',
      },
    }
  }

  function listReviews(req: FakeRequest, [a, l]: string[]): FakeReply {
    const location = located(a!, l!)
    if (isReply(location)) return location
    if (!location.verified) return googleError(400, 'FAILED_PRECONDITION', 'Location is not verified.')
    const order = req.query.get('orderBy') ?? 'updateTime desc'
    if (!['updateTime desc', 'rating', 'rating desc'].includes(order))
      return googleError(400, 'INVALID_ARGUMENT', `Invalid order_by: ${order}`)
    const mine = state.reviews.filter((r) => r.locationId === l)
    const { slice, next } = page(mine, req, Math.min(Number(req.query.get('pageSize') ?? 50), 50))
    const stars = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 } as Record<string, number>
    const average = mine.length ? mine.reduce((s, r) => s + stars[r.starRating]!, 0) / mine.length : 0
    return {
      json: {
        reviews: slice.map((r) => ({
          name: `accounts/${a}/locations/${l}/reviews/${r.reviewId}`,
          reviewId: r.reviewId,
          reviewer: r.reviewer ? { displayName: r.reviewer, isAnonymous: false } : { isAnonymous: true },
          starRating: r.starRating,
          comment: r.comment,
          createTime: r.createTime ?? '2026-11-01T09:00:00Z',
          updateTime: r.createTime ?? '2026-11-01T09:00:00Z',
          ...(r.reply ? { reviewReply: r.reply } : {}),
        })),
        averageRating: average,
        totalReviewCount: mine.length,
        ...(next ? { nextPageToken: next } : {}),
      },
    }
  }

  function reply(req: FakeRequest, [a, l, id]: string[]): FakeReply {
    const location = located(a!, l!)
    if (isReply(location)) return location
    if (!location.verified) return googleError(400, 'FAILED_PRECONDITION', 'Location is not verified.')
    const review = state.reviews.find((r) => r.locationId === l && r.reviewId === id)
    if (!review) return googleError(404, 'NOT_FOUND', 'Requested entity was not found.')
    const comment = req.json().comment
    if (typeof comment !== 'string' || !comment || Buffer.byteLength(comment) > 4096)
      return googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.', [
        { field: 'comment', message: 'The reply must be 1 to 4096 bytes.' },
      ])
    review.reply = { comment, updateTime: state.clock().toISOString() }
    return { json: review.reply }
  }

  const server = await startFakeServer(routes, () => googleError(404, 'NOT_FOUND', 'No such method.'))
  return {
    ...server,
    oauth,
    state,
    client: CLIENT,
    failNextError(code: number, status: string, message: string, path?: RegExp, headers?: Record<string, string>) {
      const reply = googleError(code, status, message)
      state.failures.push({ reply: headers ? { ...reply, headers } : reply, ...(path ? { path } : {}) })
    },
    /** The access token stops working (as after its expiry or a revocation). */
    expireAccessToken() {
      state.accessToken = `${state.accessToken}-expired`
    },
  }
}

export type LocalFake = Awaited<ReturnType<typeof startLocalFake>>
