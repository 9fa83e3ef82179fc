/**
 * The forum network fake's state and its submissions (test/fakes/forum.ts serves them): the
 * account's subreddits, `POST /api/submit` and `POST /api/submit_gallery_post.json` answered with
 * `json.errors` lists as the network writes them, image and video submissions that appear among
 * the account's submissions only after processing, and those submissions as a Listing.
 */
import type { FakeReply, FakeRequest } from './fake-server'

export interface FakeSubreddit {
  display_name: string
  public_description: string
  submission_type: 'any' | 'self' | 'link'
  link_flair_required: boolean
  flairs: string[]
  where: Array<'subscriber' | 'moderator' | 'contributor'>
}

export interface FakeSubmission {
  id: string
  name: string
  subreddit: string
  title: string
  kind: 'self' | 'link' | 'image' | 'video' | 'gallery'
  selftext: string
  url: string | null
  poster: string | null
  gallery: Array<{ media_id: string; caption: string }>
  flair_id: string | null
  flair_text: string | null
  over_18: boolean
  spoiler: boolean
  send_replies: boolean
  created_utc: number
  score: number
  num_comments: number
  /** Reads of the account's submissions left before a media submission appears. */
  hiddenFor: number
  removed: boolean
}

export interface FakeAsset {
  asset_id: string
  key: string
  mimetype: string
  bytes: Buffer | null
}

/** A User-Agent of the documented form `<platform>:<app ID>:<version string>`, optionally `(by /u/name)`. */
export const DESCRIPTIVE_USER_AGENT = /^[\w.-]+:[\w.-]+:v?[\w.-]+( \(by \/u\/[\w-]+\))?$/

export const submitError = (
  code: string,
  message: string,
  field: string,
  extra: Record<string, unknown> = {},
): FakeReply => ({
  json: { json: { errors: [[code, message, field]], ...extra } },
})
export const listing = (children: Array<{ kind: string; data: unknown }>, after: string | null) => ({
  kind: 'Listing',
  data: { after, before: null, dist: children.length, children },
})
export const isImage = (b: Buffer) =>
  (b[0] === 0xff && b[1] === 0xd8) ||
  b.subarray(0, 4).toString('latin1') === '\x89PNG' ||
  b.subarray(0, 3).toString('latin1') === 'GIF'
export const isVideo = (b: Buffer) => b.subarray(4, 8).toString('latin1') === 'ftyp'

export interface ForumOptions {
  subreddits?: number
  processingReads?: number
  budget?: number
}

export function forumState(options: ForumOptions) {
  return {
    accessToken: 'forum_access_1',
    refreshToken: 'forum_refresh_1',
    client: { id: 'forum-client', secret: 'forum-secret' },
    user: { id: 'a1b2c3', name: 'corner_bakery' },
    refreshCount: 0,
    subreddits: [
      {
        display_name: 'bakers',
        public_description: 'Bread and pastry',
        submission_type: 'any',
        link_flair_required: false,
        flairs: ['f-news', 'f-recipe'],
        where: ['subscriber'],
      },
      {
        display_name: 'SelfOnly',
        public_description: 'Text posts only',
        submission_type: 'self',
        link_flair_required: false,
        flairs: [],
        where: ['subscriber', 'moderator'],
      },
      {
        display_name: 'LinksOnly',
        public_description: '',
        submission_type: 'link',
        link_flair_required: false,
        flairs: [],
        where: ['contributor'],
      },
      {
        display_name: 'flaired',
        public_description: 'Flair required',
        submission_type: 'any',
        link_flair_required: true,
        flairs: ['f-1'],
        where: ['subscriber'],
      },
      ...Array.from({ length: options.subreddits ?? 0 }, (_, i) => ({
        display_name: `extra${i + 1}`,
        public_description: `Extra ${i + 1}`,
        submission_type: 'any' as const,
        link_flair_required: false,
        flairs: [],
        where: ['subscriber' as const],
      })),
    ] as FakeSubreddit[],
    submissions: [] as FakeSubmission[],
    assets: new Map<string, FakeAsset>(),
    processingReads: options.processingReads ?? 1,
    /** Requests left in the rate-limit window, and seconds to its end. */
    budget: options.budget ?? 600,
    resetSec: 420,
    /** The next submit answers RATELIMIT with this many seconds. */
    submitRatelimitSec: null as number | null,
    userAgents: [] as string[],
    clock: () => new Date(),
    sequence: 1000,
    pageSize: 100,
  }
}

export type ForumState = ReturnType<typeof forumState>

/** The submission handlers over `state`; `mediaUrl(key)` is where an uploaded asset lives. */
export function forumSubmissions(state: ForumState, mediaUrl: (key: string) => string) {
  const next = () => (++state.sequence).toString(36)
  const srOf = (name: string | null) =>
    state.subreddits.find((s) => s.display_name.toLowerCase() === (name ?? '').replace(/^\/?r\//i, '').toLowerCase())
  const permalink = (p: FakeSubmission) =>
    `/r/${p.subreddit}/comments/${p.id}/${p.title.toLowerCase().replace(/\W+/g, '_').slice(0, 40)}/`
  const postData = (p: FakeSubmission) => ({
    id: p.id,
    name: p.name,
    subreddit: p.subreddit,
    title: p.title,
    selftext: p.selftext,
    url: p.url ?? `https://www.reddit.com${permalink(p)}`,
    permalink: permalink(p),
    created_utc: p.created_utc,
    score: p.score,
    ups: p.score,
    num_comments: p.num_comments,
    over_18: p.over_18,
    spoiler: p.spoiler,
    author: state.user.name,
    is_self: p.kind === 'self',
  })

  const submitted = (req: FakeRequest): FakeReply => {
    const size = Math.min(Number(req.query.get('limit') ?? 25), 100)
    const visible = state.submissions.filter((p) => {
      if (p.removed) return false
      if (p.hiddenFor <= 0) return true
      p.hiddenFor--
      return false
    })
    const newest = visible.reverse()
    const after = req.query.get('after')
    const from = after ? newest.findIndex((p) => p.name === after) + 1 : 0
    const page = newest.slice(from, from + size)
    const children = page.map((p) => ({ kind: 't3', data: postData(p) }))
    return { json: listing(children, from + size < newest.length && page.length ? page.at(-1)!.name : null) }
  }

  const submit = async (req: FakeRequest): Promise<FakeReply> => {
    const f = req.form()
    if (f.get('api_type') !== 'json') return { json: { jquery: [] } }
    if (state.submitRatelimitSec !== null) {
      const sec = state.submitRatelimitSec
      state.submitRatelimitSec = null
      return submitError(
        'RATELIMIT',
        `Looks like you've been doing that a lot. Take a break for ${Math.ceil(sec / 60)} minutes before trying again.`,
        'ratelimit',
        { ratelimit: sec },
      )
    }
    const sr = srOf(f.get('sr'))
    if (!sr) return submitError('SUBREDDIT_NOEXIST', "that subreddit doesn't exist", 'sr')
    const title = f.get('title') ?? ''
    if (!title.trim()) return submitError('NO_TEXT', 'we need something here', 'title')
    if ([...title].length > 300) return submitError('TOO_LONG', 'this is too long (max: 300)', 'title')
    const kind = f.get('kind') as FakeSubmission['kind']
    if (kind === 'self' && sr.submission_type === 'link')
      return submitError('NO_SELFS', "that subreddit doesn't allow text posts", 'sr')
    if (kind !== 'self' && sr.submission_type === 'self')
      return submitError('NO_LINKS', 'that subreddit only allows text posts', 'sr')
    const text = f.get('text') ?? ''
    if ([...text].length > 40_000) return submitError('TOO_LONG', 'this is too long (max: 40000)', 'text')
    const url = f.get('url')
    if (kind === 'link' && !/^https?:\/\/\S+$/.test(url ?? ''))
      return submitError('BAD_URL', 'you should check that url', 'url')
    const assetAt = (u: string | null) => [...state.assets.values()].find((a) => u === mediaUrl(a.key) && a.bytes)
    if (kind === 'image' && !assetAt(url)?.mimetype.startsWith('image/'))
      return submitError('BAD_URL', 'you should check that url', 'url')
    if (kind === 'video') {
      if (!assetAt(url)?.mimetype.startsWith('video/'))
        return submitError('BAD_URL', 'you should check that url', 'url')
      if (!assetAt(f.get('video_poster_url'))?.mimetype.startsWith('image/'))
        return submitError('BAD_URL', 'you should check that url', 'video_poster_url')
    }
    if (!['self', 'link', 'image', 'video'].includes(kind))
      return submitError('INVALID_OPTION', "that option isn't valid", 'kind')
    const flair = checkFlair(sr, f.get('flair_id'))
    if (flair) return flair
    const post = create(sr, title, kind, {
      selftext: kind === 'self' ? text : '',
      url: kind === 'self' ? null : url,
      poster: f.get('video_poster_url'),
      flair_id: f.get('flair_id'),
      flair_text: f.get('flair_text'),
      over_18: f.get('nsfw') === 'true',
      spoiler: f.get('spoiler') === 'true',
      send_replies: f.get('sendreplies') !== 'false',
      hiddenFor: kind === 'image' || kind === 'video' ? state.processingReads : 0,
    })
    if (kind === 'image' || kind === 'video')
      return {
        json: {
          json: {
            errors: [],
            data: {
              user_submitted_page: `https://www.reddit.com/user/${state.user.name}/submitted/`,
              websocket_url: `wss://ws.fake/${post.id}`,
            },
          },
        },
      }
    return {
      json: {
        json: {
          errors: [],
          data: { url: `https://www.reddit.com${permalink(post)}`, drafts_count: 0, id: post.id, name: post.name },
        },
      },
    }
  }

  const checkFlair = (sr: FakeSubreddit, flairId: string | null): FakeReply | null => {
    if (flairId && !sr.flairs.includes(flairId))
      return submitError('INVALID_FLAIR_TEMPLATE_ID', 'That flair template is not valid here', 'flair')
    if (sr.link_flair_required && !flairId)
      return submitError('SUBMIT_VALIDATION_FLAIR_REQUIRED', 'Your post must contain post flair.', 'flair')
    return null
  }

  const create = (sr: FakeSubreddit, title: string, kind: FakeSubmission['kind'], extra: Partial<FakeSubmission>) => {
    const id = next()
    const post: FakeSubmission = {
      id,
      name: `t3_${id}`,
      subreddit: sr.display_name,
      title,
      kind,
      selftext: '',
      url: null,
      poster: null,
      gallery: [],
      flair_id: null,
      flair_text: null,
      over_18: false,
      spoiler: false,
      send_replies: true,
      created_utc: Math.floor(state.clock().getTime() / 1000),
      score: 1,
      num_comments: 0,
      hiddenFor: 0,
      removed: false,
      ...extra,
    }
    state.submissions.push(post)
    return post
  }

  const submitGallery = (req: FakeRequest): FakeReply => {
    const body = req.json()
    if (state.submitRatelimitSec !== null) {
      const sec = state.submitRatelimitSec
      state.submitRatelimitSec = null
      return submitError(
        'RATELIMIT',
        `Take a break for ${Math.ceil(sec / 60)} minutes before trying again.`,
        'ratelimit',
        { ratelimit: sec },
      )
    }
    const sr = srOf(body.sr)
    if (!sr) return submitError('SUBREDDIT_NOEXIST', "that subreddit doesn't exist", 'sr')
    if (sr.submission_type === 'self') return submitError('NO_LINKS', 'that subreddit only allows text posts', 'sr')
    const title = String(body.title ?? '')
    if (!title.trim() || [...title].length > 300) return submitError('TOO_LONG', 'this is too long (max: 300)', 'title')
    const items: Array<{ media_id: string; caption: string }> = Array.isArray(body.items) ? body.items : []
    if (items.length < 2 || items.length > 20)
      return submitError('TOO_MANY_ITEMS', 'a gallery takes 2 to 20 items', 'items')
    for (const item of items) {
      const asset = state.assets.get(item.media_id)
      if (!asset?.bytes || !asset.mimetype.startsWith('image/'))
        return submitError('MEDIA_NOT_FOUND', 'media not found', 'items')
      if ((item.caption ?? '').length > 180) return submitError('TOO_LONG', 'this is too long (max: 180)', 'caption')
    }
    const flair = checkFlair(sr, body.flair_id ?? null)
    if (flair) return flair
    const post = create(sr, title, 'gallery', {
      gallery: items.map((i) => ({ media_id: i.media_id, caption: i.caption ?? '' })),
      flair_id: body.flair_id ?? null,
      flair_text: body.flair_text ?? null,
      over_18: body.nsfw === true,
      spoiler: body.spoiler === true,
      send_replies: body.sendreplies !== false,
    })
    return {
      json: { json: { errors: [], data: { url: `https://www.reddit.com/gallery/${post.id}`, id: post.name } } },
    }
  }

  return { next, srOf, postData, submitted, submit, submitGallery }
}
