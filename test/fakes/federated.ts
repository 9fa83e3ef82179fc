/**
 * A loopback fake of a federated-network instance (Mastodon API): bearer tokens, multipart media
 * uploads (images ready at once; video 202 and processing for a few polls, 206 meanwhile),
 * statuses honouring Idempotency-Key for an hour, reply chains, counts, delete, and the
 * X-RateLimit-* headers on every answer. Errors are `{error: "..."}` as the instance sends them.
 * From mastodon/documentation: methods/media.md (200 image / 202 `url: null`, GET 206 while
 * processing, 422 when processing failed), methods/statuses.md (Idempotency-Key kept up to 1 hour,
 * DELETE answers the Status with its source `text`), user/posting.md (4 images or one video),
 * api/rate-limits.md (X-RateLimit-Reset is a timestamp), entities/Error.md.
 */
import { federatedInbox, type FederatedAuthor } from './federated-inbox'
import { oauthFake } from './oauth-provider'
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'

export interface FederatedStatus {
  id: string
  text: string
  visibility: string
  inReplyToId: string | null
  mediaIds: string[]
  idempotencyKey: string | null
  url: string
  favourites_count: number
  replies_count: number
  reblogs_count: number
  /** When it was posted (default: the fake's now). */
  createdAt?: string
  /** Someone else's status (a reply or a mention); absent: the account's own. */
  author?: FederatedAuthor
}

export interface FederatedMedia {
  id: string
  bytes: Buffer
  mimeType: string
  filename: string
  description: string | null
  pollsLeft: number
  /** Processing ends in failure (GET answers 422). */
  failed: boolean
}

const IDEMPOTENCY_TTL_MS = 3600_000
const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

export async function startFederatedFake(options: {
  now: () => Date
  token?: string
  videoPolls?: number
  /**
   * Statuses answered without their addresses: `'no-url'` drops `url` and `uri`, `'null-url'` sends
   * `url: null` and no `uri`, `'bare'` also drops the account (url is nullable in the Status entity).
   */
  statusAddresses?: 'full' | 'no-url' | 'null-url' | 'bare'
}) {
  const state = {
    tokens: new Set([options.token ?? 'fed-token-1']),
    statuses: [] as FederatedStatus[],
    media: new Map<string, FederatedMedia>(),
    idempotency: new Map<string, { statusId: string; at: number }>(),
    followers: 17,
  }
  let serial = 100
  // Hosted connect: our app registered on this server (POST /api/v1/apps), then its OAuth with PKCE.
  const apps: Array<{ clientId: string; redirectUri: string; scopes: string }> = []
  const oauth = oauthFake(
    { client: { id: 'fed-client-1', secret: 'fed-secret-1' }, clientAuth: 'post', pkce: true },
    (issued) => state.tokens.add(issued.accessToken),
  )
  const planned: Array<{ route: string; reply: FakeReply; skip: number }> = []
  let loseNextStatus = false
  let failNextProcessing = false

  const rateHeaders = (): Record<string, string> => ({
    'x-ratelimit-limit': '300',
    'x-ratelimit-remaining': '299',
    'x-ratelimit-reset': new Date(Math.ceil(options.now().getTime() / 300_000) * 300_000).toISOString(),
  })
  const reply = (r: FakeReply): FakeReply => ({ ...r, headers: { ...rateHeaders(), ...r.headers } })
  const err = (status: number, error: string): FakeReply => reply({ status, json: { error } })
  const takePlanned = (route: string) => {
    const i = planned.findIndex((p) => p.route === route)
    if (i < 0) return null
    if (planned[i]!.skip-- > 0) return null
    return planned.splice(i, 1)[0]!.reply
  }
  const guarded =
    (route: string, handler: (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>) =>
    async (req: FakeRequest, params: string[]) => {
      const p = takePlanned(route)
      if (p) return reply(p)
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
      if (!token || !state.tokens.has(token)) return err(401, 'The access token is invalid')
      return reply(await handler(req, params))
    }
  const account = () => ({
    id: '109876',
    username: 'alice',
    acct: 'alice',
    display_name: 'Alice',
    url: `${server.url}/@alice`,
    followers_count: state.followers,
    following_count: 5,
    statuses_count: state.statuses.length,
  })
  const statusJson = (s: FederatedStatus) => {
    const full = fullStatusJson(s)
    const mode = options.statusAddresses ?? 'full'
    if (mode === 'full') return full
    const { url: _url, uri: _uri, account: _account, ...rest } = full
    if (mode === 'no-url') return { ...rest, account: full.account }
    if (mode === 'null-url') return { ...rest, url: null, account: full.account }
    return rest
  }
  const fullStatusJson = (s: FederatedStatus) => ({
    id: s.id,
    uri: `${server.url}/users/alice/statuses/${s.id}`,
    url: s.url,
    created_at: s.createdAt ?? options.now().toISOString(),
    content: `<p>${escapeHtml(s.text)}</p>`,
    visibility: s.visibility,
    in_reply_to_id: s.inReplyToId,
    media_attachments: s.mediaIds.map((id) => mediaJson(state.media.get(id)!)),
    account: s.author ? { ...s.author, url: `${server.url}/@${s.author.acct}` } : account(),
    favourites_count: s.favourites_count,
    replies_count: s.replies_count,
    reblogs_count: s.reblogs_count,
  })
  const mediaJson = (m: FederatedMedia) => ({
    id: m.id,
    type: m.mimeType.startsWith('video/') ? 'video' : 'image',
    url: m.pollsLeft > 0 ? null : `${server.url}/system/media/${m.id}`,
    description: m.description,
  })

  const inbox = federatedInbox({
    state,
    now: options.now,
    guarded,
    statusJson: (s) => statusJson(s),
    account: () => account(),
    serial: () => String(++serial),
  })
  const server = await startFakeServer(
    [
      ...inbox.routes,
      [
        'POST',
        '/api/v1/apps',
        (req) => {
          const body = req.json()
          apps.push({ clientId: 'fed-client-1', redirectUri: body.redirect_uris, scopes: body.scopes })
          return {
            json: {
              id: '563419',
              name: body.client_name,
              scopes: String(body.scopes).split(' '),
              redirect_uris: [body.redirect_uris],
              client_id: 'fed-client-1',
              client_secret: 'fed-secret-1',
            },
          }
        },
      ],
      ['GET', '/oauth/authorize', (req) => oauth.authorize(req)],
      ['POST', '/oauth/token', (req) => oauth.exchange(req)],
      ['POST', '/oauth/revoke', (req) => oauth.revoke(req)],
      ['GET', '/api/v1/accounts/verify_credentials', guarded('verify', () => ({ json: account() }))],
      [
        'POST',
        '/api/v2/media',
        guarded('media', async (req) => {
          const form = await req.formData()
          const file = form.get('file')
          if (!(file instanceof Blob)) return { status: 422, json: { error: "Validation failed: File can't be blank" } }
          const id = String(++serial)
          const video = file.type.startsWith('video/')
          const m: FederatedMedia = {
            id,
            bytes: Buffer.from(await file.arrayBuffer()),
            mimeType: file.type,
            filename: (file as File).name,
            description: (form.get('description') as string | null) ?? null,
            pollsLeft: video ? (options.videoPolls ?? 2) : 0,
            failed: video && failNextProcessing,
          }
          if (video) failNextProcessing = false
          state.media.set(id, m)
          return { status: video ? 202 : 200, json: mediaJson(m) }
        }),
      ],
      [
        'GET',
        /^\/api\/v1\/media\/([^/]+)$/,
        guarded('media-get', (_req, [id]) => {
          const m = state.media.get(id!)
          if (!m) return { status: 404, json: { error: 'Record not found' } }
          if (m.pollsLeft > 0) {
            m.pollsLeft--
            return { status: 206, json: { ...mediaJson(m), url: null } }
          }
          if (m.failed)
            return { status: 422, json: { error: 'Validation failed: File content type is invalid, File is invalid' } }
          return { json: mediaJson(m) }
        }),
      ],
      [
        'POST',
        '/api/v1/statuses',
        guarded('status', (req) => {
          const key = req.headers['idempotency-key'] ?? null
          const now = options.now().getTime()
          const remembered = key ? state.idempotency.get(key) : undefined
          if (remembered && now - remembered.at < IDEMPOTENCY_TTL_MS)
            return { json: statusJson(state.statuses.find((s) => s.id === remembered.statusId)!) }
          const body = req.json()
          const text: string = body.status ?? ''
          const mediaIds: string[] = body.media_ids ?? []
          if (!text && mediaIds.length === 0)
            return { status: 422, json: { error: "Validation failed: Text can't be blank" } }
          if ([...new Intl.Segmenter().segment(text)].length > 500)
            return { status: 422, json: { error: 'Validation failed: Text character limit of 500 exceeded' } }
          if (mediaIds.length > 4)
            return { status: 422, json: { error: 'Validation failed: Media attachments are limited to 4' } }
          for (const id of mediaIds) {
            const m = state.media.get(id)
            if (!m) return { status: 422, json: { error: 'Validation failed: Media could not be found' } }
            if (m.pollsLeft > 0)
              return {
                status: 422,
                json: { error: 'Cannot attach files that have not finished processing. Try again in a moment!' },
              }
          }
          if (mediaIds.length > 1 && mediaIds.some((id) => state.media.get(id)!.mimeType.startsWith('video/')))
            return { status: 422, json: { error: 'Cannot attach a video to a post that already contains images' } }
          if (body.in_reply_to_id && !state.statuses.some((s) => s.id === body.in_reply_to_id))
            return { status: 404, json: { error: 'Record not found' } }
          const id = String(++serial)
          const status: FederatedStatus = {
            id,
            text,
            visibility: body.visibility ?? 'public',
            inReplyToId: body.in_reply_to_id ?? null,
            mediaIds,
            idempotencyKey: key,
            url: `${server.url}/@alice/${id}`,
            favourites_count: 0,
            replies_count: 0,
            reblogs_count: 0,
          }
          state.statuses.push(status)
          if (key) state.idempotency.set(key, { statusId: id, at: now })
          if (loseNextStatus) {
            loseNextStatus = false
            return { status: 502, body: '<html>Bad Gateway</html>' }
          }
          return { json: statusJson(status) }
        }),
      ],
      [
        'GET',
        /^\/api\/v1\/statuses\/([^/]+)$/,
        guarded('status-get', (_req, [id]) => {
          const s = state.statuses.find((x) => x.id === id)
          return s ? { json: statusJson(s) } : { status: 404, json: { error: 'Record not found' } }
        }),
      ],
      [
        'DELETE',
        /^\/api\/v1\/statuses\/([^/]+)$/,
        guarded('status-delete', (_req, [id]) => {
          // Only the account's own statuses: anyone else's is not found for it.
          const i = state.statuses.findIndex((x) => x.id === id && !x.author)
          if (i < 0) return { status: 404, json: { error: 'Record not found' } }
          const [s] = state.statuses.splice(i, 1)
          return { json: { ...statusJson(s!), text: s!.text } }
        }),
      ],
    ],
    () => ({ status: 404, json: { error: 'Record not found' } }),
  )

  return {
    oauth,
    /** Apps registered on this server through hosted connect. */
    apps,
    url: server.url,
    server,
    state,
    token: [...state.tokens][0]!,
    /** The next call of a route ('verify', 'media', 'media-get', 'status', 'status-get', 'status-delete'), after `skip` good ones, answers this. */
    failNext(route: string, r: FakeReply, skip = 0) {
      planned.push({ route, reply: r, skip })
    },
    /** The next status is made but its answer is lost (a 502 from a proxy). */
    loseNextStatus: () => (loseNextStatus = true),
    revokeTokens: () => state.tokens.clear(),
    /** Favourited status ids, mention notifications; `addStatus` posts as the account or someone else. */
    favourites: inbox.favourites,
    notifications: inbox.notifications,
    addStatus: inbox.addStatus,
    /** The next video uploaded fails processing (after its polls, GET /api/v1/media/:id answers 422). */
    failNextProcessing: () => (failNextProcessing = true),
  }
}

export type FederatedFake = Awaited<ReturnType<typeof startFederatedFake>>
