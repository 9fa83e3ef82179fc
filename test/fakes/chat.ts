/**
 * A loopback CHAT_NET, from its documentation: webhooks at `/api/webhooks/{id}/{token}` (the token
 * is the auth; `?wait=true` answers the Message, otherwise 204) and the bot API under `/api/v10`
 * with `Authorization: Bot <token>`. Messages are JSON or multipart (`payload_json` + `files[n]`,
 * `attachments[]` metadata with descriptions). A bot message with `nonce` + `enforce_nonce` that
 * repeats one already sent returns that message instead of making another. `allowed_mentions`
 * decides whether @everyone/@here/roles ping (recorded as `pinged`). Errors are `{code, message}`;
 * 429 carries `retry_after`, `global`, `Retry-After` and `X-RateLimit-*` headers.
 */
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'

export interface FakeChatMessage {
  id: string
  channel_id: string
  guild_id: string | null
  via: 'webhook' | 'bot'
  author: { id: string; username: string; bot: boolean; global_name?: string | null; avatar?: string | null }
  content: string
  /** Emoji to the user ids that added it (`PUT .../reactions/{emoji}/@me`); none when absent. */
  reactions?: Map<string, Set<string>>
  nonce: string | null
  timestamp: string
  attachments: Array<{
    id: string
    filename: string
    description: string | null
    content_type: string
    size: number
    bytes: Buffer
  }>
  message_reference: { message_id: string } | null
  allowed_mentions: unknown
  /** Whether @everyone, @here or a role/user mention in the text would notify people. */
  pinged: boolean
}

const err = (status: number, code: number, message: string, extra: Record<string, unknown> = {}): FakeReply => ({
  status,
  json: { code, message, ...extra },
})
const MAX_FILE = 10 * 1024 * 1024

export async function startChatFake(options: { guildId?: string } = {}) {
  const guildId = options.guildId ?? '900000000000000001'
  const state = {
    webhook: {
      id: '123',
      token: 'tok',
      name: 'Announcements hook',
      channel_id: '700000000000000007',
      guild_id: guildId as string | null,
      deleted: false,
    },
    botToken: 'bot-secret',
    bot: { id: '555000000000000555', username: 'PublishBot', bot: true },
    channels: new Map<string, { id: string; guild_id: string | null; name: string; type: number }>([
      ['700000000000000007', { id: '700000000000000007', guild_id: guildId, name: 'announcements', type: 0 }],
    ]),
    /** Channels where the bot lacks Send Messages (it can still see them). */
    forbidden: new Set<string>(),
    /** Channels the bot cannot see at all (no View Channel). */
    hidden: new Set<string>(),
    messages: [] as FakeChatMessage[],
    deleted: [] as string[],
    queued: [] as Array<{ match: RegExp; reply: FakeReply; skip: number }>,
    /** The network's nonce memory ("a few minutes"): clear it to model a retry after the window. */
    nonces: new Map<string, string>(),
    /** Whether the bot holds Manage Messages (deleting other people's messages). */
    manageMessages: true,
    /** The next message is created but its answer is lost (a gateway error), as after a dropped connection. */
    loseNextAnswer: false,
  }
  let seq = 0
  const snowflake = () => String(1300000000000000000n + BigInt(++seq))

  const queued = (req: FakeRequest) => {
    const i = state.queued.findIndex((q) => q.match.test(`${req.method} ${req.path}`))
    if (i < 0) return null
    if (state.queued[i]!.skip-- > 0) return null
    return state.queued.splice(i, 1)[0]!.reply
  }
  /** The reference: every HTTP API client sends `User-Agent: DiscordBot ($url, $versionNumber)`. */
  const badAgent = (req: FakeRequest) =>
    /^DiscordBot \([^,]+, [^)]+\)/.test(req.headers['user-agent'] ?? '')
      ? null
      : err(400, 0, 'Missing or invalid User-Agent')
  const asBot =
    (handler: (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>) =>
    async (req: FakeRequest, params: string[]) =>
      queued(req) ??
      badAgent(req) ??
      (req.headers.authorization === `Bot ${state.botToken}` ? handler(req, params) : err(401, 0, '401: Unauthorized'))
  const asWebhook =
    (handler: (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>) =>
    async (req: FakeRequest, params: string[]) => {
      const early = queued(req) ?? badAgent(req)
      if (early) return early
      const [id, token] = params
      if (state.webhook.deleted || id !== state.webhook.id) return err(404, 10015, 'Unknown Webhook')
      if (token !== state.webhook.token) return err(401, 50027, 'Invalid Webhook Token')
      return handler(req, params)
    }

  async function create(req: FakeRequest, via: 'webhook' | 'bot', channelId: string): Promise<FakeReply> {
    let payload: any
    const files: Array<{ index: number; file: File }> = []
    if ((req.headers['content-type'] ?? '').startsWith('multipart/form-data')) {
      const form = await req.formData()
      payload = JSON.parse(String(form.get('payload_json') ?? '{}'))
      for (const [key, value] of form.entries()) {
        const m = /^files\[(\d+)\]$/.exec(key)
        if (m && typeof value !== 'string') files.push({ index: Number(m[1]), file: value as File })
      }
    } else {
      payload = req.json()
    }
    if (typeof payload.nonce === 'string' && payload.nonce.length > 25)
      return err(400, 50035, 'Invalid Form Body', {
        errors: { nonce: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' }] } },
      })
    if (!payload.content && files.length === 0) return err(400, 50006, 'Cannot send an empty message')
    for (const f of files) if (f.file.size > MAX_FILE) return err(413, 40005, 'Request entity too large')
    const author = via === 'bot' ? state.bot : { id: state.webhook.id, username: state.webhook.name, bot: true }
    const nonceKey = `${author.id}:${channelId}:${payload.nonce}`
    if (via === 'bot' && payload.enforce_nonce === true && payload.nonce && state.nonces.has(nonceKey)) {
      return { json: view(state.messages.find((m) => m.id === state.nonces.get(nonceKey))!) }
    }
    const ref = payload.message_reference?.message_id
    if (ref && !state.messages.some((m) => m.id === ref && m.channel_id === channelId))
      return err(400, 50035, 'Invalid Form Body', {
        errors: { message_reference: { _errors: [{ code: 'REPLIES_UNKNOWN_MESSAGE', message: 'Unknown message' }] } },
      })
    const attachments = await Promise.all(
      files.map(async ({ index, file }) => {
        const meta =
          (payload.attachments ?? []).find((a: { id: number | string }) => String(a.id) === String(index)) ?? {}
        return {
          id: snowflake(),
          filename: meta.filename ?? file.name,
          description: meta.description ?? null,
          content_type: file.type,
          size: file.size,
          bytes: Buffer.from(await file.arrayBuffer()),
        }
      }),
    )
    const parse: string[] | undefined = payload.allowed_mentions?.parse
    const content: string = payload.content ?? ''
    const mentions = /@everyone|@here|<@&?\d+>/.test(content)
    const message: FakeChatMessage = {
      id: snowflake(),
      channel_id: channelId,
      guild_id: state.channels.get(channelId)?.guild_id ?? null,
      via,
      author,
      content,
      nonce: typeof payload.nonce === 'string' ? payload.nonce : null,
      timestamp: new Date().toISOString(),
      attachments,
      message_reference: ref ? { message_id: ref } : null,
      reactions: new Map(),
      allowed_mentions: payload.allowed_mentions ?? null,
      pinged: mentions && (parse === undefined || parse.length > 0),
    }
    state.messages.push(message)
    if (via === 'bot' && payload.enforce_nonce === true && payload.nonce) state.nonces.set(nonceKey, message.id)
    if (state.loseNextAnswer) {
      state.loseNextAnswer = false
      return err(502, 0, '502: Bad Gateway')
    }
    return { json: view(message) }
  }
  /** A message as the API shows it (the nonce only in the create answer, as documented). */
  const view = (m: FakeChatMessage, withNonce = true) => ({
    id: m.id,
    channel_id: m.channel_id,
    author: m.author,
    content: m.content,
    timestamp: m.timestamp,
    attachments: m.attachments.map(({ bytes: _b, ...a }) => ({
      ...a,
      url: `https://cdn.example/${a.id}/${a.filename}`,
    })),
    mention_everyone: m.pinged,
    type: m.message_reference ? 19 : 0,
    reactions: [...(m.reactions ?? [])].map(([name, users]) => ({
      count: users.size,
      me: users.has(state.bot.id),
      emoji: { id: null, name },
    })),
    ...(m.message_reference ? { message_reference: { ...m.message_reference, channel_id: m.channel_id } } : {}),
    ...(withNonce && m.nonce ? { nonce: m.nonce } : {}),
    ...(m.via === 'webhook' ? { webhook_id: state.webhook.id } : {}),
  })
  const channelFor = (id: string) => state.channels.get(id)

  const server = await startFakeServer(
    [
      [
        'GET',
        /^\/api\/webhooks\/(\d+)\/([^/]+)$/,
        asWebhook(() => ({
          json: {
            id: state.webhook.id,
            type: 1,
            name: state.webhook.name,
            channel_id: state.webhook.channel_id,
            guild_id: state.webhook.guild_id,
            token: state.webhook.token,
          },
        })),
      ],
      [
        'POST',
        /^\/api\/webhooks\/(\d+)\/([^/]+)$/,
        asWebhook(async (req) => {
          if (req.headers.authorization) return err(400, 50035, 'Webhooks take no Authorization header')
          const reply = await create(req, 'webhook', state.webhook.channel_id)
          return req.query.get('wait') === 'true' || (reply.status ?? 200) !== 200 ? reply : { status: 204 }
        }),
      ],
      [
        'DELETE',
        /^\/api\/webhooks\/(\d+)\/([^/]+)\/messages\/(\d+)$/,
        asWebhook((_req, [, , mid]) => remove(mid!, 'webhook')),
      ],
      ['GET', '/api/v10/users/@me', asBot(() => ({ json: state.bot }))],
      [
        'GET',
        /^\/api\/v10\/channels\/(\d+)$/,
        asBot((_req, [id]) => {
          const c = channelFor(id!)
          if (!c) return err(404, 10003, 'Unknown Channel')
          if (state.hidden.has(id!)) return err(403, 50001, 'Missing Access')
          return { json: c }
        }),
      ],
      [
        'POST',
        /^\/api\/v10\/channels\/(\d+)\/messages$/,
        asBot((req, [id]) => {
          if (!channelFor(id!)) return err(404, 10003, 'Unknown Channel')
          if (state.hidden.has(id!)) return err(403, 50001, 'Missing Access')
          if (state.forbidden.has(id!)) return err(403, 50013, 'Missing Permissions')
          return create(req, 'bot', id!)
        }),
      ],
      [
        'GET',
        /^\/api\/v10\/channels\/(\d+)\/messages$/,
        asBot((req, [id]) => {
          if (!channelFor(id!)) return err(404, 10003, 'Unknown Channel')
          return { json: listMessages(req, id!) ?? err(400, 50035, 'Invalid Form Body') }
        }),
      ],
      [
        'PUT',
        /^\/api\/v10\/channels\/(\d+)\/messages\/(\d+)\/reactions\/([^/]+)\/@me$/,
        asBot((_req, [cid, mid, emoji]) => {
          const m = state.messages.find((x) => x.id === mid && x.channel_id === cid)
          if (!m) return err(404, 10008, 'Unknown Message')
          const name = decodeURIComponent(emoji!)
          if (!/^\p{Extended_Pictographic}/u.test(name) && !/^\w+:\d+$/.test(name))
            return err(400, 10014, 'Unknown Emoji')
          m.reactions ??= new Map()
          m.reactions.set(name, (m.reactions.get(name) ?? new Set()).add(state.bot.id))
          return { status: 204 }
        }),
      ],
      ['DELETE', /^\/api\/v10\/channels\/(\d+)\/messages\/(\d+)$/, asBot((_req, [, mid]) => remove(mid!, 'bot'))],
    ],
    () => err(404, 0, '404: Not Found'),
  )
  /**
   * `GET /channels/{id}/messages`: `limit` 1 to 100 (default 50); `before` the newest older ones,
   * `after` the oldest newer ones; either way the page is newest first, as the network answers.
   */
  function listMessages(req: FakeRequest, channelId: string): unknown[] | null {
    const limit = Number(req.query.get('limit') ?? 50)
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return null
    const before = req.query.get('before')
    const after = req.query.get('after')
    let list = state.messages.filter((m) => m.channel_id === channelId)
    if (before) list = list.filter((m) => BigInt(m.id) < BigInt(before))
    if (after) list = list.filter((m) => BigInt(m.id) > BigInt(after)).slice(0, limit)
    return list
      .reverse()
      .slice(0, limit)
      .map((m) => view(m, false))
  }
  function remove(id: string, via: 'webhook' | 'bot'): FakeReply {
    const m = state.messages.find((x) => x.id === id && (via === 'bot' || x.via === 'webhook'))
    if (!m) return err(404, 10008, 'Unknown Message')
    if (via === 'bot' && m.author.id !== state.bot.id && !state.manageMessages)
      return err(403, 50013, 'Missing Permissions')
    state.messages = state.messages.filter((x) => x.id !== id)
    state.deleted.push(id)
    return { status: 204 }
  }
  return {
    ...server,
    state,
    webhookUrl: `${server.url}/api/webhooks/${state.webhook.id}/${state.webhook.token}`,
    /** A message someone else wrote in the channel (a reply when `replyTo` is given), as the network stores it. */
    say(author: { id: string; username: string; global_name?: string }, content: string, replyTo?: string) {
      const message: FakeChatMessage = {
        id: snowflake(),
        channel_id: state.webhook.channel_id,
        guild_id: guildId,
        via: 'bot',
        author: { ...author, bot: false, avatar: 'a1b2' },
        content,
        reactions: new Map(),
        nonce: null,
        timestamp: new Date().toISOString(),
        attachments: [],
        message_reference: replyTo ? { message_id: replyTo } : null,
        allowed_mentions: null,
        pinged: false,
      }
      state.messages.push(message)
      return message
    },
    /** The next request whose `METHOD /path` matches (after `skip` more such requests) gets this answer instead. */
    failNext(match: RegExp, reply: FakeReply, skip = 0) {
      state.queued.push({ match, reply, skip })
    },
    /** A documented 429: body and headers. */
    rateLimit(retryAfter: number, global = false): FakeReply {
      return {
        status: 429,
        headers: {
          'retry-after': String(Math.ceil(retryAfter)),
          'x-ratelimit-reset-after': String(retryAfter),
          'x-ratelimit-scope': global ? 'global' : 'user',
          ...(global ? { 'x-ratelimit-global': 'true' } : {}),
        },
        json: { message: 'You are being rate limited.', retry_after: retryAfter, global, code: 0 },
      }
    },
    error: err,
  }
}

export type ChatFake = Awaited<ReturnType<typeof startChatFake>>
