/**
 * A loopback fake of a community-network instance (Lemmy 0.19, HTTP API v3), following the
 * server's documented contract: `POST /api/v3/user/login` (400 `missing_totp_token`, 401
 * `incorrect_login`), a bearer session the server ignores when it does not know it (the site
 * answers without `my_user`, a call that needs a user answers 400 `not_logged_in`), communities
 * listed 50 a page at most, posts checked as the server checks them (title 3 to 200 code points on
 * one line, body 50,000, URL 2,000, alt text 1,500, the community's languages, moderators-only
 * communities), its post rate limit (6 per 10 minutes by default, 400 `rate_limit_error`), a
 * person's newest posts, counts, delete (twice: 400 `couldnt_update_post`), and the image server
 * under `/pictrs/image` (multipart `images[]`, `{ msg: "ok", files: [...] }`). Errors are
 * `{ "error": "<code>" }`.
 */
import { communityInbox, type FakeComment } from './community-inbox'
import { type FakeReply, type FakeRequest, startFakeServer } from './fake-server'

export interface CommunityPost {
  id: number
  name: string
  communityId: number
  body: string | null
  url: string | null
  customThumbnail: string | null
  altText: string | null
  nsfw: boolean
  languageId: number
  published: string
  deleted: boolean
  score: number
  comments: number
}

export interface FakeCommunity {
  id: number
  name: string
  title: string
  followed: boolean
  modsOnly: boolean
}

const TITLE = { min: 3, max: 200 }
const BODY_MAX = 50_000
const URL_MAX = 2000
const ALT_MAX = 1500
const PAGE_MAX = 50
/** The server's default post limit: 6 per 600 seconds. */
const POST_LIMIT = { max: 6, windowMs: 600_000 }
/** The instance's languages a community may allow (0 is "undetermined"). */
const COMMUNITY_LANGUAGES = [0, 37, 38]

const codePoints = (s: string) => [...s].length
/** The server's time stamps: UTC with microseconds. */
const stamp = (d: Date) => d.toISOString().replace('Z', '000Z')

export async function startCommunityFake(options: {
  now: () => Date
  password?: string
  /** The account has two-factor authentication with this code. */
  totp?: string
  /** How many followed communities the account has (paged 50 at a time). */
  followed?: number
}) {
  const password = options.password ?? 'correct horse battery'
  const state = {
    sessions: new Set<string>(),
    posts: [] as CommunityPost[],
    images: new Map<string, { bytes: Buffer; mimeType: string }>(),
    communities: [] as FakeCommunity[],
    /** Times of accepted create calls (the rate limiter's window). */
    creates: [] as number[],
    postLimit: POST_LIMIT.max,
    /** The person's email, for login by email. */
    email: 'alice@example.org',
  }
  const followed = options.followed ?? 3
  for (let i = 1; i <= followed; i++)
    state.communities.push({ id: i, name: `topic${i}`, title: `Topic ${i}`, followed: true, modsOnly: false })
  state.communities.push({ id: 900, name: 'announcements', title: 'Announcements', followed: true, modsOnly: true })
  state.communities.push({ id: 901, name: 'elsewhere', title: 'Elsewhere', followed: false, modsOnly: false })
  let serial = 1000
  let sessionSerial = 0
  /** A session token shaped as the server's (a JWT with `sub`, `iss`, `iat`; never checked here). */
  const newSession = () => {
    const claims = Buffer.from(JSON.stringify({ sub: 1, iss: 'fake', iat: ++sessionSerial })).toString('base64url')
    const jwt = `eyJhbGciOiJIUzI1NiJ9.${claims}.sig`
    state.sessions.add(jwt)
    return jwt
  }
  const person = () => ({
    id: 7,
    name: 'alice',
    display_name: 'Alice',
    actor_id: `${server.url}/u/alice`,
    local: true,
    banned: false,
    deleted: false,
    bot_account: false,
    published: '2024-01-01T00:00:00.000000Z',
  })
  const communityJson = (c: FakeCommunity) => ({
    id: c.id,
    name: c.name,
    title: c.title,
    actor_id: `${server.url}/c/${c.name}`,
    removed: false,
    deleted: false,
    nsfw: false,
    local: true,
    hidden: false,
    posting_restricted_to_mods: c.modsOnly,
    visibility: 'Public',
  })
  const postView = (p: CommunityPost) => ({
    post: {
      id: p.id,
      name: p.name,
      ...(p.url ? { url: p.url } : {}),
      ...(p.body !== null ? { body: p.body } : {}),
      ...(p.altText ? { alt_text: p.altText } : {}),
      ...(p.customThumbnail ? { thumbnail_url: p.customThumbnail } : {}),
      creator_id: 7,
      community_id: p.communityId,
      removed: false,
      locked: false,
      published: p.published,
      deleted: p.deleted,
      nsfw: p.nsfw,
      ap_id: `${server.url}/post/${p.id}`,
      local: true,
      language_id: p.languageId,
    },
    creator: person(),
    community: communityJson(state.communities.find((c) => c.id === p.communityId)!),
    counts: { post_id: p.id, comments: p.comments, score: p.score, upvotes: Math.max(p.score, 0), downvotes: 0 },
  })
  const error = (code: string, status = 400): FakeReply => ({ status, json: { error: code } })
  const sessionOf = (req: FakeRequest) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    return token && state.sessions.has(token) ? token : null
  }
  /** A call that needs a user: an unknown token is ignored, so the server says no one is logged in. */
  const user =
    (handler: (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>) =>
    (req: FakeRequest, params: string[]) =>
      sessionOf(req) ? handler(req, params) : error('not_logged_in')

  const createPost = (req: FakeRequest): FakeReply => {
    const body = req.json()
    const now = options.now().getTime()
    state.creates = state.creates.filter((t) => now - t < POST_LIMIT.windowMs)
    if (state.creates.length >= state.postLimit) return error('rate_limit_error')
    const name = typeof body.name === 'string' ? body.name : ''
    const length = codePoints(name.trim())
    if (length < TITLE.min || length > TITLE.max || /[\r\n]/.test(name)) return error('invalid_post_title')
    if (typeof body.body === 'string' && codePoints(body.body) > BODY_MAX) return error('invalid_body_field')
    for (const field of ['url', 'custom_thumbnail'] as const) {
      if (body[field] === undefined) continue
      if (typeof body[field] !== 'string' || !URL.canParse(body[field])) return error('invalid_url')
      if (body[field].length > URL_MAX) return error('url_length_overflow')
    }
    if (typeof body.alt_text === 'string' && codePoints(body.alt_text) > ALT_MAX)
      return error('alt_text_length_overflow')
    const community = state.communities.find((c) => c.id === body.community_id)
    if (!community) return error('couldnt_find_community', 404)
    if (community.modsOnly) return error('only_mods_can_post_in_community')
    if (body.language_id !== undefined && !COMMUNITY_LANGUAGES.includes(body.language_id))
      return error('language_not_allowed')
    state.creates.push(now)
    const post: CommunityPost = {
      id: ++serial,
      name: name.trim(),
      communityId: community.id,
      body: typeof body.body === 'string' ? body.body : null,
      url: body.url ?? null,
      customThumbnail: body.custom_thumbnail ?? null,
      altText: body.alt_text ?? null,
      nsfw: body.nsfw === true,
      languageId: body.language_id ?? 0,
      published: stamp(options.now()),
      deleted: false,
      score: 1,
      comments: 0,
    }
    state.posts.push(post)
    return { json: { post_view: postView(post) } }
  }

  const inbox = communityInbox({
    url: () => server.url,
    me: () => ({ id: 7, name: 'alice', display_name: 'Alice' }),
    postExists: (id) => state.posts.some((p) => p.id === id && !p.deleted),
    now: options.now,
    user,
  })
  const server = await startFakeServer(
    [
      ...inbox.routes,
      [
        'POST',
        '/api/v3/user/login',
        (req) => {
          const body = req.json()
          const who = String(body.username_or_email ?? '')
          if ((who !== 'alice' && who !== state.email) || body.password !== password)
            return error('incorrect_login', 401)
          if (options.totp && !body.totp_2fa_token) return error('missing_totp_token')
          if (options.totp && body.totp_2fa_token !== options.totp) return error('incorrect_totp_token')
          return { json: { jwt: newSession(), registration_created: false, verify_email_sent: false } }
        },
      ],
      [
        'GET',
        '/api/v3/site',
        (req) => ({
          json: {
            site_view: { site: { name: 'Fake instance' }, local_site_rate_limit: { post: 6, post_per_second: 600 } },
            version: '0.19.9',
            all_languages: [
              { id: 0, code: 'und', name: 'Undetermined' },
              { id: 37, code: 'en', name: 'English' },
            ],
            ...(sessionOf(req)
              ? { my_user: { local_user_view: { person: person(), local_user: { person_id: 7 } }, follows: [] } }
              : {}),
          },
        }),
      ],
      [
        'GET',
        '/api/v3/community/list',
        user((req) => {
          const limit = Number(req.query.get('limit') ?? 10)
          const page = Number(req.query.get('page') ?? 1)
          if (!(limit >= 1 && limit <= PAGE_MAX)) return error('couldnt_get_posts')
          const type = req.query.get('type_') ?? 'Local'
          const listed = state.communities.filter((c) => type !== 'Subscribed' || c.followed)
          const slice = listed.slice((page - 1) * limit, page * limit)
          return {
            json: {
              communities: slice.map((c) => ({
                community: communityJson(c),
                subscribed: c.followed ? 'Subscribed' : 'NotSubscribed',
                blocked: false,
                counts: {},
              })),
            },
          }
        }),
      ],
      ['POST', '/api/v3/post', user(createPost)],
      [
        'GET',
        '/api/v3/post',
        (req) => {
          const p = state.posts.find((x) => x.id === Number(req.query.get('id')) && !x.deleted)
          return p
            ? { json: { post_view: postView(p), community_view: {}, moderators: [], cross_posts: [] } }
            : error('couldnt_find_post', 404)
        },
      ],
      [
        'POST',
        '/api/v3/post/delete',
        user((req) => {
          const body = req.json()
          const p = state.posts.find((x) => x.id === body.post_id)
          if (!p) return error('couldnt_find_post', 404)
          if (p.deleted === body.deleted) return error('couldnt_update_post')
          p.deleted = body.deleted === true
          return { json: { post_view: postView(p) } }
        }),
      ],
      [
        'GET',
        '/api/v3/user',
        (req) => {
          if (req.query.get('username') !== 'alice') return error('couldnt_find_person', 404)
          const limit = Math.min(Number(req.query.get('limit') ?? 10), PAGE_MAX)
          const page = Number(req.query.get('page') ?? 1)
          const newest = [...state.posts].filter((p) => !p.deleted).sort((a, b) => b.id - a.id)
          return {
            json: {
              person_view: { person: person(), counts: { post_count: newest.length, comment_count: 0 } },
              posts: newest.slice((page - 1) * limit, page * limit).map(postView),
              comments: [],
              moderates: [],
            },
          }
        },
      ],
      [
        'POST',
        '/pictrs/image',
        user(async (req) => {
          const form = await req.formData()
          const file = form.get('images[]')
          if (!(file instanceof Blob)) return { status: 400, json: { msg: 'No files present in upload' } }
          if (!file.type.startsWith('image/')) return { status: 415, json: { msg: 'Unsupported media type' } }
          const name = `${crypto.randomUUID()}.${file.type.split('/')[1]}`
          state.images.set(name, { bytes: Buffer.from(await file.arrayBuffer()), mimeType: file.type })
          return { status: 201, json: { msg: 'ok', files: [{ file: name, delete_token: crypto.randomUUID() }] } }
        }),
      ],
      [
        'GET',
        /^\/pictrs\/image\/([^/]+)$/,
        (_req, [name]) => {
          const image = state.images.get(decodeURIComponent(name!))
          return image
            ? { headers: { 'content-type': image.mimeType }, body: image.bytes }
            : { status: 404, json: { msg: 'not found' } }
        },
      ],
    ],
    () => error('couldnt_find_object', 404),
  )

  return {
    url: server.url,
    server,
    state,
    password,
    /** A session as a login opens one (for tests that store an account without the form). */
    openSession: newSession,
    /** The instance forgets every session (the owner logged out everywhere, or changed the password). */
    endSessions: () => state.sessions.clear(),
    /** Comments on the instance; `comment` adds one by someone (a reply when `parentId` is set). */
    comments: inbox.comments,
    comment: (
      postId: number,
      creator: FakeComment['creator'],
      content: string,
      parentId: number | null,
      published: Date,
    ) => inbox.add(postId, creator, content, parentId, stamp(published)),
    /** A post of the account made on the instance itself. */
    addPost: (name: string, published: Date) => {
      const post: CommunityPost = {
        id: ++serial,
        name,
        communityId: 1,
        body: null,
        url: null,
        customThumbnail: null,
        altText: null,
        nsfw: false,
        languageId: 0,
        published: stamp(published),
        deleted: false,
        score: 3,
        comments: 0,
      }
      state.posts.push(post)
      return post
    },
    /** A post's counts change on the network. */
    vote: (id: number, score: number, comments: number) => {
      const p = state.posts.find((x) => x.id === id)!
      p.score = score
      p.comments = comments
    },
  }
}

export type CommunityFake = Awaited<ReturnType<typeof startCommunityFake>>
