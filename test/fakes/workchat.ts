/**
 * A loopback fake of the workplace chat network's Web API (Slack), from its reference: every method
 * at `/api/<method>` answers HTTP 200 with `{ ok: true, ... }` or `{ ok: false, error }`, a rate
 * limit is HTTP 429 with `Retry-After`; bearer bot tokens (`invalid_auth`, `token_expired` for a
 * rotated token past its 12 hours); OAuth v2 install at `/oauth/v2/authorize` and
 * `oauth.v2.access` (code, and `refresh_token` with rotation on); `auth.test`; channels listed with
 * cursor paging, public ones joinable, private ones only where the bot is a member;
 * `chat.postMessage` (text, section and image blocks whose images it really fetches, `thread_ts`),
 * `chat.getPermalink`, `chat.delete`; `conversations.history` and `.replies` (`oldest`, `latest`,
 * `inclusive`), with `reply_count` and `reactions`; the external upload flow
 * (`files.getUploadURLExternal`, the upload URL, `files.completeUploadExternal` sharing into a
 * channel, the message appearing in history after `shareDelayReads` reads).
 */
import { randomBytes } from 'node:crypto'
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'
import { oauthFake } from './oauth-provider'
import { workchatInboxRoutes } from './workchat-inbox'

export interface FakeChannel {
  id: string
  name: string
  is_private: boolean
  is_archived: boolean
  members: Set<string>
  purpose: string
}

export interface FakeMessage {
  channel: string
  ts: string
  user: string
  bot_id: string
  text: string
  blocks: Array<Record<string, any>> | null
  thread_ts: string | null
  files: Array<{ id: string; name: string; bytes: Buffer }> | null
  reactions: Array<{ name: string; count: number; users: string[] }>
  images: Buffer[]
  /** History reads left before a shared file's message shows. */
  hiddenReads: number
}

interface FakeFile {
  id: string
  filename: string
  length: number
  bytes: Buffer | null
  shared: boolean
}

const BOT_USER = 'U0BOT0001'
const BOT_ID = 'B0BOT0001'
const isImage = (b: Buffer) =>
  (b[0] === 0xff && b[1] === 0xd8) ||
  b.subarray(0, 4).toString('latin1') === '\x89PNG' ||
  b.subarray(0, 3).toString('latin1') === 'GIF'
const fail = (error: string, extra: Record<string, unknown> = {}): FakeReply => ({
  json: { ok: false, error, ...extra },
})
const ok = (body: Record<string, unknown> = {}): FakeReply => ({ json: { ok: true, ...body } })

export async function startWorkchatFake(
  options: { rotation?: boolean; channels?: number; shareDelayReads?: number } = {},
) {
  const channels: FakeChannel[] = [
    {
      id: 'C0GENERAL1',
      name: 'general',
      is_private: false,
      is_archived: false,
      members: new Set([BOT_USER]),
      purpose: 'Everyone',
    },
    { id: 'C0RANDOM01', name: 'random', is_private: false, is_archived: false, members: new Set(), purpose: '' },
    {
      id: 'G0SECRET01',
      name: 'leads',
      is_private: true,
      is_archived: false,
      members: new Set([BOT_USER]),
      purpose: 'Sales',
    },
    { id: 'G0HIDDEN01', name: 'board', is_private: true, is_archived: false, members: new Set(), purpose: '' },
    {
      id: 'C0OLDNEWS1',
      name: 'old-news',
      is_private: false,
      is_archived: true,
      members: new Set([BOT_USER]),
      purpose: '',
    },
  ]
  for (let i = 0; i < (options.channels ?? 0); i++)
    channels.push({
      id: `C0EXTRA${String(i).padStart(3, '0')}`,
      name: `extra-${i}`,
      is_private: false,
      is_archived: false,
      members: new Set(),
      purpose: '',
    })
  const state = {
    rotation: options.rotation ?? false,
    accessToken: options.rotation ? 'xoxe.xoxb-1-first' : 'xoxb-1-first',
    refreshToken: options.rotation ? 'xoxe-1-refresh-first' : (null as string | null),
    tokenExpiresAt: Number.POSITIVE_INFINITY,
    refreshCount: 0,
    client: { id: '1111.2222', secret: 'wc-secret' },
    channels,
    messages: [] as FakeMessage[],
    files: new Map<string, FakeFile>(),
    shareDelayReads: options.shareDelayReads ?? 0,
    pageSizeCap: 200,
    failures: [] as Array<{ path?: RegExp; reply: FakeReply }>,
    clock: () => new Date(),
    seq: 0,
  }
  const oauth = oauthFake({ client: state.client, clientAuth: 'basic', pkce: false }, (issued) => {
    state.accessToken = state.rotation ? `xoxe.xoxb-${issued.accessToken}` : `xoxb-${issued.accessToken}`
    state.refreshToken = state.rotation ? `xoxe-1-${issued.refreshToken}` : null
    state.tokenExpiresAt = state.rotation ? state.clock().getTime() + 43_200_000 : Number.POSITIVE_INFINITY
  })
  const channelOf = (id: unknown) => state.channels.find((c) => c.id === id)
  const nextTs = () => {
    state.seq++
    return `${Math.floor(state.clock().getTime() / 1000)}.${String(state.seq).padStart(6, '0')}`
  }
  const tsNum = (ts: string) => Number(ts)
  const visible = (m: FakeMessage) => {
    const { images: _i, hiddenReads: _h, files, ...rest } = m
    const reply_count = state.messages.filter((r) => r.thread_ts === m.ts && r.channel === m.channel).length
    return {
      type: 'message',
      ...rest,
      files: files?.map((f) => ({ id: f.id, name: f.name })),
      ...(m.reactions.length ? { reactions: m.reactions } : {}),
      ...(reply_count ? { reply_count } : {}),
    }
  }

  const authed =
    (handler: (req: FakeRequest) => FakeReply | Promise<FakeReply>) =>
    async (req: FakeRequest): Promise<FakeReply> => {
      const i = state.failures.findIndex((f) => !f.path || f.path.test(`${req.method} ${req.path}`))
      if (i >= 0) return state.failures.splice(i, 1)[0]!.reply
      if (req.headers.authorization !== `Bearer ${state.accessToken}`) return fail('invalid_auth')
      if (state.clock().getTime() >= state.tokenExpiresAt) return fail('token_expired')
      return handler(req)
    }
  const jsonBody = (req: FakeRequest): Record<string, any> | null =>
    req.headers['content-type']?.startsWith('application/json') ? req.json() : null

  const fetchImage = async (url: string): Promise<Buffer | null> => {
    const res = await fetch(url).catch(() => null)
    if (!res?.ok) return null
    const bytes = Buffer.from(await res.arrayBuffer())
    return isImage(bytes) ? bytes : null
  }

  const postMessage = async (req: FakeRequest): Promise<FakeReply> => {
    const body = jsonBody(req)
    if (!body) return fail('invalid_arguments')
    const channel = channelOf(body.channel)
    if (!channel || (channel.is_private && !channel.members.has(BOT_USER))) return fail('channel_not_found')
    if (channel.is_archived) return fail('is_archived')
    if (!channel.members.has(BOT_USER)) return fail('not_in_channel')
    const text = typeof body.text === 'string' ? body.text : ''
    const blocks: Array<Record<string, any>> | null = Array.isArray(body.blocks) ? body.blocks : null
    if (!text && !blocks) return fail('no_text')
    if (text.length > 40_000) return fail('msg_too_long')
    const images: Buffer[] = []
    if (blocks) {
      if (blocks.length > 50) return fail('invalid_blocks', { errors: ['must be at most 50 items'] })
      for (const b of blocks) {
        if (b.type === 'section' && (typeof b.text?.text !== 'string' || b.text.text.length > 3000))
          return fail('invalid_blocks', { errors: ['section text must be at most 3000 characters'] })
        if (b.type === 'image') {
          if (typeof b.alt_text !== 'string' || !b.alt_text || b.alt_text.length > 2000)
            return fail('invalid_blocks', { errors: ['alt_text is required'] })
          const bytes = await fetchImage(String(b.image_url))
          if (!bytes) return fail('invalid_blocks', { errors: ['downloading image failed'] })
          images.push(bytes)
        }
      }
    }
    let thread_ts: string | null = null
    if (body.thread_ts !== undefined) {
      const parent = state.messages.find((m) => m.channel === channel.id && m.ts === body.thread_ts && !m.thread_ts)
      if (!parent) return fail('thread_not_found')
      thread_ts = parent.ts
    }
    const message: FakeMessage = {
      channel: channel.id,
      ts: nextTs(),
      user: BOT_USER,
      bot_id: BOT_ID,
      text,
      blocks,
      thread_ts,
      files: null,
      reactions: [],
      images,
      hiddenReads: 0,
    }
    state.messages.push(message)
    return ok({ channel: channel.id, ts: message.ts, message: visible(message) })
  }

  const readable = (req: FakeRequest): FakeChannel | FakeReply => {
    const channel = channelOf(req.query.get('channel'))
    if (!channel || (channel.is_private && !channel.members.has(BOT_USER))) return fail('channel_not_found')
    if (!channel.members.has(BOT_USER)) return fail('not_in_channel')
    return channel
  }
  const inWindow = (req: FakeRequest, m: FakeMessage) => {
    const oldest = Number(req.query.get('oldest') ?? 0)
    const latest = Number(req.query.get('latest') ?? Number.POSITIVE_INFINITY)
    const inclusive = req.query.get('inclusive') === 'true'
    const t = tsNum(m.ts)
    return inclusive ? t >= oldest && t <= latest : t > oldest && t < latest
  }

  /** One page of messages: `limit` (at most the page cap), `cursor` an offset, `has_more` and `next_cursor`. */
  const pageOf = (req: FakeRequest, all: FakeMessage[]): FakeReply => {
    const limit = Math.min(Number(req.query.get('limit') ?? 100), state.pageSizeCap)
    const cursor = req.query.get('cursor')
    const start = cursor ? Number(Buffer.from(cursor, 'base64').toString().replace('offset:', '')) : 0
    if (!Number.isInteger(start) || start < 0) return fail('invalid_cursor')
    const more = start + limit < all.length
    return ok({
      messages: all.slice(start, start + limit).map(visible),
      has_more: more,
      ...(more
        ? { response_metadata: { next_cursor: Buffer.from(`offset:${start + limit}`).toString('base64') } }
        : {}),
    })
  }

  const server = await startFakeServer(
    [
      ['GET', '/oauth/v2/authorize', (req) => oauth.authorize(req)],
      [
        'POST',
        '/api/oauth.v2.access',
        (req) => {
          const form = req.form()
          const basic = `Basic ${Buffer.from(`${state.client.id}:${state.client.secret}`).toString('base64')}`
          if (req.headers.authorization !== basic) return fail('invalid_client_id')
          if (form.get('grant_type') === 'refresh_token') {
            if (!state.rotation || form.get('refresh_token') !== state.refreshToken)
              return fail('invalid_refresh_token')
            state.refreshCount++
            state.accessToken = `xoxe.xoxb-1-renewed-${state.refreshCount}`
            state.refreshToken = `xoxe-1-refresh-${state.refreshCount}`
            state.tokenExpiresAt = state.clock().getTime() + 43_200_000
            return ok({
              access_token: state.accessToken,
              refresh_token: state.refreshToken,
              expires_in: 43_200,
              token_type: 'bot',
              scope: 'chat:write,channels:read',
              bot_user_id: BOT_USER,
              app_id: 'A0APP0001',
              team: { id: 'T0TEAM001', name: 'Acme' },
            })
          }
          const answer = oauth.exchange(req)
          const body = (answer.json ?? {}) as Record<string, any>
          if ((answer.status ?? 200) !== 200)
            return fail(body.error === 'invalid_grant' ? 'invalid_code' : String(body.error))
          return ok({
            access_token: state.accessToken,
            token_type: 'bot',
            scope: body.scope,
            bot_user_id: BOT_USER,
            app_id: 'A0APP0001',
            team: { id: 'T0TEAM001', name: 'Acme' },
            enterprise: null,
            authed_user: { id: 'U0HUMAN01' },
            ...(state.rotation ? { refresh_token: state.refreshToken, expires_in: 43_200 } : {}),
          })
        },
      ],
      [
        'GET',
        '/api/auth.test',
        authed(() =>
          ok({
            url: 'https://acme.slack.com/',
            team: 'Acme',
            user: 'publisher',
            team_id: 'T0TEAM001',
            user_id: BOT_USER,
            bot_id: BOT_ID,
          }),
        ),
      ],
      [
        'GET',
        '/api/conversations.list',
        authed((req) => {
          const types = (req.query.get('types') ?? 'public_channel').split(',')
          const listed = state.channels.filter(
            (c) =>
              types.includes(c.is_private ? 'private_channel' : 'public_channel') &&
              (!c.is_private || c.members.has(BOT_USER)) &&
              !(req.query.get('exclude_archived') === 'true' && c.is_archived),
          )
          const size = Math.min(Number(req.query.get('limit') ?? 100), state.pageSizeCap)
          const cursor = req.query.get('cursor')
          const start = cursor ? Number(Buffer.from(cursor, 'base64').toString().replace('offset:', '')) : 0
          const page = listed.slice(start, start + size)
          const more = start + size < listed.length
          return ok({
            channels: page.map((c) => ({
              id: c.id,
              name: c.name,
              is_channel: !c.is_private,
              is_private: c.is_private,
              is_archived: c.is_archived,
              is_member: c.members.has(BOT_USER),
              purpose: { value: c.purpose },
            })),
            response_metadata: { next_cursor: more ? Buffer.from(`offset:${start + size}`).toString('base64') : '' },
          })
        }),
      ],
      [
        'POST',
        '/api/conversations.join',
        authed((req) => {
          const channel = channelOf(jsonBody(req)?.channel)
          if (!channel) return fail('channel_not_found')
          if (channel.is_private) return fail('method_not_supported_for_channel_type')
          if (channel.is_archived) return fail('is_archived')
          channel.members.add(BOT_USER)
          return ok({ channel: { id: channel.id, name: channel.name } })
        }),
      ],
      ['POST', '/api/chat.postMessage', authed(postMessage)],
      [
        'GET',
        '/api/chat.getPermalink',
        authed((req) => {
          const m = state.messages.find(
            (x) => x.channel === req.query.get('channel') && x.ts === req.query.get('message_ts'),
          )
          if (!m) return fail('message_not_found')
          return ok({
            channel: m.channel,
            permalink: `https://acme.slack.com/archives/${m.channel}/p${m.ts.replace('.', '')}`,
          })
        }),
      ],
      [
        'POST',
        '/api/chat.delete',
        authed((req) => {
          const body = jsonBody(req) ?? {}
          const i = state.messages.findIndex((m) => m.channel === body.channel && m.ts === body.ts)
          if (i < 0) return fail('message_not_found')
          if (state.messages[i]!.user !== BOT_USER) return fail('cant_delete_message')
          state.messages.splice(i, 1)
          return ok({ channel: body.channel, ts: body.ts })
        }),
      ],
      [
        'GET',
        '/api/conversations.history',
        authed((req) => {
          const channel = readable(req)
          if (!('id' in channel)) return channel
          const shown = state.messages.filter((m) => {
            if (m.channel !== channel.id || m.thread_ts) return false
            if (m.hiddenReads > 0) {
              m.hiddenReads--
              return false
            }
            return inWindow(req, m)
          })
          return pageOf(req, shown.reverse())
        }),
      ],
      [
        'GET',
        '/api/conversations.replies',
        authed((req) => {
          const channel = readable(req)
          if (!('id' in channel)) return channel
          const ts = req.query.get('ts')
          const parent = state.messages.find((m) => m.channel === channel.id && m.ts === ts)
          if (!parent) return fail('thread_not_found')
          const replies = state.messages.filter(
            (m) => m.channel === channel.id && m.thread_ts === ts && inWindow(req, m),
          )
          return pageOf(req, [parent, ...replies])
        }),
      ],
      ...workchatInboxRoutes({ state, authed, jsonBody, visible, nextTs, botUser: BOT_USER }),
      [
        'POST',
        '/api/files.getUploadURLExternal',
        authed((req) => {
          if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
            return fail('invalid_arguments')
          const form = req.form()
          const length = Number(form.get('length'))
          if (!form.get('filename') || !Number.isInteger(length) || length <= 0) return fail('invalid_arguments')
          if (length > 1_000_000_000) return fail('file_upload_size_restricted')
          const id = `F0${randomBytes(4).toString('hex').toUpperCase()}`
          state.files.set(id, { id, filename: form.get('filename')!, length, bytes: null, shared: false })
          return ok({ upload_url: `${server.url}/upload/v1/${id}`, file_id: id })
        }),
      ],
      [
        'POST',
        /^\/upload\/v1\/([^/]+)$/,
        (req, [id]) => {
          const file = state.files.get(id!)
          if (!file) return { status: 404, body: 'Not Found' }
          if (req.body.length !== file.length) return { status: 400, body: 'length mismatch' }
          file.bytes = Buffer.from(req.body)
          return { status: 200, headers: { 'content-type': 'text/plain' }, body: `OK - ${req.body.length}` }
        },
      ],
      [
        'POST',
        '/api/files.completeUploadExternal',
        authed((req) => {
          const body = jsonBody(req)
          if (!body || !Array.isArray(body.files) || body.files.length === 0) return fail('invalid_arguments')
          const files = body.files.map((f: { id: string }) => state.files.get(f.id))
          if (files.some((f: FakeFile | undefined) => !f?.bytes || f.shared)) return fail('file_not_found')
          const channel = channelOf(body.channel_id)
          if (!channel || (channel.is_private && !channel.members.has(BOT_USER))) return fail('channel_not_found')
          if (!channel.members.has(BOT_USER)) return fail('not_in_channel')
          for (const f of files as FakeFile[]) f.shared = true
          state.messages.push({
            channel: channel.id,
            ts: nextTs(),
            user: BOT_USER,
            bot_id: BOT_ID,
            text: typeof body.initial_comment === 'string' ? body.initial_comment : '',
            blocks: null,
            thread_ts: typeof body.thread_ts === 'string' ? body.thread_ts : null,
            files: (files as FakeFile[]).map((f) => ({ id: f.id, name: f.filename, bytes: f.bytes! })),
            reactions: [],
            images: [],
            hiddenReads: state.shareDelayReads,
          })
          return ok({ files: (files as FakeFile[]).map((f) => ({ id: f.id, title: f.filename })) })
        }),
      ],
    ],
    () => fail('unknown_method'),
  )

  return {
    ...server,
    oauth,
    state,
    botUser: BOT_USER,
    /** The next matching call answers this instead (`path` tested against "METHOD /path"). */
    failNext(reply: FakeReply, path?: RegExp) {
      state.failures.push({ reply, ...(path ? { path } : {}) })
    },
    failNextError(error: string, path?: RegExp) {
      state.failures.push({ reply: fail(error), ...(path ? { path } : {}) })
    },
    /** The token stops working, as after a revocation. */
    revokeToken() {
      state.accessToken = `${state.accessToken}-revoked`
    },
    /** Someone else's message: top level, or a reply in the thread of `threadTs`. */
    say(channel: string, user: string, text: string, threadTs?: string) {
      const message: FakeMessage = {
        channel,
        ts: nextTs(),
        user,
        bot_id: '',
        text,
        blocks: null,
        thread_ts: threadTs ?? null,
        files: null,
        reactions: [],
        images: [],
        hiddenReads: 0,
      }
      state.messages.push(message)
      return message
    },
    /** The channel's top-level messages, oldest first. */
    channelMessages: (channel: string) => state.messages.filter((m) => m.channel === channel && !m.thread_ts),
    replies: (channel: string, ts: string) => state.messages.filter((m) => m.channel === channel && m.thread_ts === ts),
  }
}

export type WorkchatFake = Awaited<ReturnType<typeof startWorkchatFake>>
