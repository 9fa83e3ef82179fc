/**
 * A loopback fake of the forum network's API (Reddit, https://www.reddit.com/dev/api and the OAuth2
 * and API rules pages of its wiki), on one server standing for both of its origins: the www origin
 * (the consent page at /api/v1/authorize, the token and revocation endpoints, HTTP Basic client
 * auth) and the API origin (Bearer tokens; 401 `{ message, error }` when wrong). It checks what the
 * documentation asks of clients: a descriptive User-Agent (a generic one is throttled with 429),
 * and it reports a rate-limit budget in X-Ratelimit-Used / -Remaining / -Reset, answering 429 once
 * it is spent. Subreddits with paging by `after`, submissions of every kind (answered with
 * `json.errors` lists as the network writes them), the media asset lease and its upload form
 * (served here; the real `action` is a scheme-less URL of the media store), image and video
 * submissions that appear only after processing, the account's submissions, /api/info and /api/del.
 */
import { forumInbox } from './forum-inbox'
import { oauthFake } from './oauth-provider'
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'
import {
  DESCRIPTIVE_USER_AGENT,
  forumState,
  forumSubmissions,
  listing,
  type FakeAsset,
  type ForumOptions,
  isImage,
  isVideo,
} from './forum-submissions'

export type { FakeAsset, FakeSubmission, FakeSubreddit } from './forum-submissions'

const apiError = (status: number, message: string, headers?: Record<string, string>): FakeReply => ({
  status,
  json: { message, error: status },
  ...(headers ? { headers } : {}),
})
/** A 200 whose `json.errors` lists one error, as the network answers a refused submission. */

export async function startForumFake(options: ForumOptions = {}) {
  const state = forumState(options)
  const posts = forumSubmissions(state, (key) => `${server.url}/media-upload/${key}`)
  const { next } = posts
  const oauth = oauthFake({ client: state.client, clientAuth: 'basic', pkce: false, expiresIn: 3600 }, (issued) => {
    state.accessToken = issued.accessToken
    state.refreshToken = issued.refreshToken
    state.user = { id: issued.identity.id, name: issued.identity.username }
  })

  /** The API origin's checks: User-Agent, budget, token. */
  const api =
    (handler: (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>) =>
    async (req: FakeRequest, params: string[]): Promise<FakeReply> => {
      const ua = req.headers['user-agent'] ?? ''
      state.userAgents.push(ua)
      if (!DESCRIPTIVE_USER_AGENT.test(ua)) return apiError(429, 'Too Many Requests')
      const limits = () => ({
        'x-ratelimit-used': String(Math.max(0, 600 - state.budget)),
        'x-ratelimit-remaining': String(Math.max(0, state.budget)),
        'x-ratelimit-reset': String(state.resetSec),
      })
      if (state.budget <= 0) return apiError(429, 'Too Many Requests', limits())
      state.budget--
      if (req.headers.authorization !== `Bearer ${state.accessToken}`) return apiError(401, 'Unauthorized', limits())
      const reply = await handler(req, params)
      return { ...reply, headers: { ...reply.headers, ...limits() } }
    }

  const inbox = forumInbox(state, api, posts.postData)
  const basicOk = (req: FakeRequest) =>
    req.headers.authorization === `Basic ${Buffer.from(`${state.client.id}:${state.client.secret}`).toString('base64')}`

  const consentPage = (req: FakeRequest): FakeReply => {
    const q = req.query
    if (q.get('duration') !== 'permanent' && q.get('duration') !== 'temporary')
      return { status: 400, body: 'invalid duration' }
    const hidden = [...q.entries()]
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${v.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`)
      .join('')
    const page = `<!DOCTYPE html><html lang="en"><head><title>Authorize application</title></head><body>
<main><h1>An application would like to connect with your account</h1>
<p>Signed in as ${state.user.name}. Allow it to: ${q.get('scope') ?? ''}</p>
<form method="post" action="/api/v1/authorize">${hidden}
<button type="submit" name="authorize" value="Allow">Allow</button>
<button type="submit" name="authorize" value="Decline">Decline</button></form></main></body></html>`
    return { headers: { 'content-type': 'text/html; charset=utf-8' }, body: page }
  }

  const server = await startFakeServer(
    [
      ...inbox.routes,
      ['GET', '/api/v1/authorize', (req) => consentPage(req)],
      [
        'POST',
        '/api/v1/authorize',
        (req) => {
          const form = req.form()
          oauth.setConsent(form.get('authorize') === 'Allow' ? 'approve' : 'deny')
          form.delete('authorize')
          return oauth.authorize({ ...req, query: form })
        },
      ],
      [
        'POST',
        '/api/v1/access_token',
        (req) => {
          if (!basicOk(req)) return { status: 401, json: { message: 'Unauthorized', error: 401 } }
          const form = req.form()
          if (form.get('grant_type') === 'authorization_code') return oauth.exchange(req)
          if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== state.refreshToken)
            return { status: 400, json: { error: 'invalid_grant' } }
          state.refreshCount++
          state.accessToken = `forum_access_${state.refreshCount + 1}`
          return {
            json: { access_token: state.accessToken, token_type: 'bearer', expires_in: 3600, scope: 'identity submit' },
          }
        },
      ],
      [
        'POST',
        '/api/v1/revoke_token',
        (req) => {
          if (!basicOk(req)) return { status: 401, json: { message: 'Unauthorized', error: 401 } }
          oauth.revoke(req)
          // The network answers 204 whether or not it knew the token.
          return { status: 204 }
        },
      ],
      ['GET', '/api/v1/me', api(() => ({ json: { name: state.user.name, id: state.user.id, link_karma: 10 } }))],
      [
        'GET',
        /^\/subreddits\/mine\/(subscriber|moderator|contributor)$/,
        api((req, [where]) => {
          const all = state.subreddits.filter((s) => s.where.includes(where as 'subscriber'))
          const size = Math.min(Number(req.query.get('limit') ?? 25), 100, state.pageSize)
          const after = req.query.get('after')
          const start = after ? all.findIndex((s) => `t5_${s.display_name}` === after) + 1 : 0
          const page = all.slice(start, start + size)
          const more = start + size < all.length
          const children = page.map((s) => ({
            kind: 't5',
            data: {
              display_name: s.display_name,
              name: `t5_${s.display_name}`,
              public_description: s.public_description,
              title: s.display_name,
              submission_type: s.submission_type,
            },
          }))
          return { json: listing(children, more ? `t5_${page.at(-1)!.display_name}` : null) }
        }),
      ],
      ['POST', '/api/submit', api(posts.submit)],
      ['POST', '/api/submit_gallery_post.json', api(posts.submitGallery)],
      [
        'POST',
        '/api/media/asset.json',
        api((req) => {
          const f = req.form()
          const mimetype = f.get('mimetype') ?? ''
          if (!f.get('filepath') || !/^(image|video)\//.test(mimetype)) return apiError(400, 'Bad Request')
          const asset: FakeAsset = {
            asset_id: next(),
            key: `rte_images/${next()}/${f.get('filepath')}`,
            mimetype,
            bytes: null,
          }
          state.assets.set(asset.asset_id, asset)
          const fields = [
            { name: 'acl', value: 'private' },
            { name: 'key', value: asset.key },
            { name: 'Content-Type', value: mimetype },
            { name: 'x-amz-signature', value: `sig-${asset.asset_id}` },
          ]
          return {
            json: {
              args: { action: `${server.url}/media-upload`, fields },
              asset: {
                asset_id: asset.asset_id,
                processing_state: 'incomplete',
                payload: { filepath: f.get('filepath') },
                websocket_url: `wss://ws.fake/asset/${asset.asset_id}`,
              },
            },
          }
        }),
      ],
      [
        'POST',
        '/media-upload',
        async (req) => {
          const form = await req.formData()
          const asset = [...state.assets.values()].find((a) => a.key === form.get('key'))
          if (!asset || form.get('x-amz-signature') !== `sig-${asset.asset_id}`)
            return { status: 403, body: '<Error><Code>AccessDenied</Code></Error>' }
          const file = form.get('file')
          if (!(file instanceof Blob)) return { status: 400, body: '<Error><Code>InvalidArgument</Code></Error>' }
          const bytes = Buffer.from(await file.arrayBuffer())
          if (asset.mimetype.startsWith('image/') ? !isImage(bytes) : !isVideo(bytes))
            return {
              status: 400,
              body: '<Error><Code>InvalidArgument</Code><Message>not the declared type</Message></Error>',
            }
          asset.bytes = bytes
          return {
            status: 201,
            headers: { 'content-type': 'application/xml' },
            body: `<PostResponse><Location>${server.url}/media-upload/${asset.key}</Location><Key>${asset.key}</Key></PostResponse>`,
          }
        },
      ],
      [
        'GET',
        /^\/user\/([^/]+)\/submitted$/,
        api((req, [name]) => (name === state.user.name ? posts.submitted(req) : apiError(404, 'Not Found'))),
      ],
      [
        'GET',
        '/api/info',
        api((req) => {
          const ids = (req.query.get('id') ?? '').split(',')
          const children = state.submissions
            .filter((p) => ids.includes(p.name) && !p.removed)
            .map((p) => ({ kind: 't3', data: posts.postData(p) }))
          return { json: listing([...children, ...inbox.info(ids)], null) }
        }),
      ],
      [
        'POST',
        '/api/del',
        api((req) => {
          if (inbox.del(req.form().get('id') ?? '')) return { json: {} }
          const post = state.submissions.find((p) => p.name === req.form().get('id'))
          if (post) post.removed = true
          return { json: {} }
        }),
      ],
    ],
    () => apiError(404, 'Not Found'),
  )

  return {
    oauth,
    ...server,
    state,
    /** The access token stops working (as after its hour, or a revocation). */
    expireAccessToken() {
      state.accessToken = `${state.accessToken}-expired`
    },
    visible: () => state.submissions.filter((p) => !p.removed),
    /** Comments and mentions (inbox side); `comment` adds one by `author` under `parentId` (t3_ or t1_). */
    comments: inbox.comments,
    comment: (linkId: string, author: string, body: string, parentId: string, created: Date) =>
      inbox.add(linkId, author, body, parentId, created),
  }
}

export type ForumFake = Awaited<ReturnType<typeof startForumFake>>
