/**
 * A loopback stand-in for the messaging app's Bot API, from its documentation:
 * `/bot<token>/<method>` taking JSON or multipart, `{ok:true,result}` answers and
 * `{ok:false,error_code,description,parameters}` failures (401 for a wrong token, 403 when the bot
 * cannot post, 429 with `retry_after`, 400 with `migrate_to_chat_id`), files uploaded as multipart
 * parts or `attach://` references, albums answering one message per item, replies, and delete
 * refusing messages older than 48 hours. Limits as documented: text 1-4096 characters, captions
 * 0-1024, albums 2-10 items; a restricted member needs is_member and can_send_messages. A message
 * the network queues instead of sending answers `message_id: 0` (`scheduleNext`).
 * The descriptions' exact words are not documented; these follow what the network is seen to send.
 */
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'

export interface FakeMessage {
  message_id: number
  chatId: string
  kind: 'text' | 'photo' | 'video'
  text: string | null
  caption: string | null
  parseMode: string | null
  bytes: Buffer | null
  replyTo: number | null
  mediaGroupId: string | null
  date: number
}

const fail = (error_code: number, description: string, parameters?: Record<string, unknown>): FakeReply => ({
  status: error_code,
  json: { ok: false, error_code, description, ...(parameters ? { parameters } : {}) },
})
const ok = (result: unknown): FakeReply => ({ json: { ok: true, result } })
type Member = { status: string; can_post_messages?: boolean; is_member?: boolean; can_send_messages?: boolean }
const TEXT_MAX = 4096
const CAPTION_MAX = 1024

export interface MessagingFakeOptions {
  token?: string
  chat?: { id: number; type: 'channel' | 'supergroup' | 'group'; title: string; username?: string }
  /** The bot's membership in the chat (a ChatMember object without `user`). */
  member?: Member
  now?: () => Date
}

export async function startMessagingFake(options: MessagingFakeOptions = {}) {
  const token = options.token ?? '123456:ABC-def_ghi'
  const chat = options.chat ?? {
    id: -1001234567890,
    type: 'channel' as const,
    title: 'Acme News',
    username: 'acmenews',
  }
  const me = { id: 123456, is_bot: true, first_name: 'Acme Bot', username: 'acme_bot' }
  let member: Member = options.member ?? { status: 'administrator', can_post_messages: true }
  let scheduleNext = false
  const now = options.now ?? (() => new Date())
  const messages: FakeMessage[] = []
  const planned: Array<{ method: string; reply: FakeReply; skip: number; afterSend: boolean }> = []
  let seq = 100
  let group = 0
  let memberCount = 321

  const take = (method: string, afterSend: boolean): FakeReply | null => {
    const i = planned.findIndex((p) => p.method === method && p.afterSend === afterSend)
    if (i < 0) return null
    if (planned[i]!.skip > 0) {
      planned[i]!.skip--
      return null
    }
    return planned.splice(i, 1)[0]!.reply
  }

  /** The call's parameters, JSON or multipart (files stay Blobs). */
  async function paramsOf(req: FakeRequest): Promise<Map<string, unknown>> {
    const type = req.headers['content-type'] ?? ''
    if (type.startsWith('multipart/form-data')) {
      const form = await req.formData()
      return new Map([...form.entries()])
    }
    if (req.body.length === 0) return new Map(req.query.entries())
    return new Map(Object.entries(type.startsWith('application/json') ? req.json() : Object.fromEntries(req.form())))
  }
  const sameChat = (v: unknown) =>
    String(v) === String(chat.id) || (chat.username !== undefined && String(v) === `@${chat.username}`)
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v)
  const fileOf = async (params: Map<string, unknown>, ref: unknown): Promise<Buffer | null> => {
    const value =
      typeof ref === 'string' && ref.startsWith('attach://') ? params.get(ref.slice('attach://'.length)) : ref
    return value instanceof Blob ? Buffer.from(await value.arrayBuffer()) : null
  }

  const chatObject = () => ({
    id: chat.id,
    type: chat.type,
    title: chat.title,
    ...(chat.username ? { username: chat.username } : {}),
  })

  async function send(method: string, params: Map<string, unknown>): Promise<FakeReply> {
    if (member.status === 'left' || member.status === 'kicked')
      return fail(403, 'Forbidden: bot is not a member of the channel chat')
    if (chat.type === 'channel' && member.status !== 'administrator' && member.status !== 'creator')
      return fail(403, 'Forbidden: bot is not a member of the channel chat')
    if (chat.type === 'channel' && member.status === 'administrator' && member.can_post_messages !== true)
      return fail(400, 'Bad Request: need administrator rights in the channel chat')
    if (member.status === 'restricted' && (!member.is_member || !member.can_send_messages))
      return fail(400, 'Bad Request: not enough rights to send text messages to the chat')
    const reply = json(params.get('reply_parameters')) as { message_id?: number } | undefined
    const replyTo = reply?.message_id ?? null
    if (replyTo !== null && !messages.some((m) => m.message_id === replyTo))
      return fail(400, 'Bad Request: message to be replied not found')
    const base = {
      chatId: String(chat.id),
      parseMode: (params.get('parse_mode') as string) ?? null,
      replyTo,
      date: Math.floor(now().getTime() / 1000),
      mediaGroupId: null,
    }
    const made: FakeMessage[] = []
    if (method === 'sendMessage') {
      const text = String(params.get('text') ?? '')
      if (!text) return fail(400, 'Bad Request: message text is empty')
      if (text.length > TEXT_MAX) return fail(400, 'Bad Request: message is too long')
      made.push({ ...base, message_id: ++seq, kind: 'text', text, caption: null, bytes: null })
    } else if (method === 'sendPhoto' || method === 'sendVideo') {
      const kind = method === 'sendPhoto' ? 'photo' : 'video'
      const bytes = await fileOf(params, params.get(kind))
      if (!bytes) return fail(400, `Bad Request: there is no ${kind} in the request`)
      if (String(params.get('caption') ?? '').length > CAPTION_MAX)
        return fail(400, 'Bad Request: message caption is too long')
      made.push({
        ...base,
        message_id: ++seq,
        kind,
        text: null,
        caption: (params.get('caption') as string) ?? null,
        bytes,
      })
    } else {
      const items = json(params.get('media')) as Array<{ type: 'photo' | 'video'; media: string; caption?: string }>
      if (!Array.isArray(items) || items.length < 2 || items.length > 10)
        return fail(400, 'Bad Request: wrong number of media in the album')
      if (items.some((item) => (item.caption ?? '').length > CAPTION_MAX))
        return fail(400, 'Bad Request: message caption is too long')
      const groupId = `g${++group}`
      for (const item of items) {
        const bytes = await fileOf(params, item.media)
        if (!bytes) return fail(400, 'Bad Request: wrong file identifier/HTTP URL specified')
        made.push({
          ...base,
          message_id: ++seq,
          kind: item.type,
          text: null,
          caption: item.caption ?? null,
          bytes,
          mediaGroupId: groupId,
        })
      }
    }
    messages.push(...made)
    const after = take(method, true)
    if (after) return after
    const queued = scheduleNext
    scheduleNext = false
    const asJson = (m: FakeMessage) => ({
      message_id: queued ? 0 : m.message_id,
      date: m.date,
      chat: chatObject(),
      ...(m.text !== null ? { text: m.text } : {}),
      ...(m.caption !== null ? { caption: m.caption } : {}),
      ...(m.mediaGroupId ? { media_group_id: m.mediaGroupId } : {}),
      ...(m.replyTo !== null ? { reply_to_message: { message_id: m.replyTo } } : {}),
    })
    return ok(method === 'sendMediaGroup' ? made.map(asJson) : asJson(made[0]!))
  }

  const server = await startFakeServer(
    [
      [
        'POST',
        /^\/bot([^/]+)\/(\w+)$/,
        async (req, [given, method]) => {
          if (given !== token) return fail(401, 'Unauthorized')
          const plannedReply = take(method!, false)
          if (plannedReply) return plannedReply
          const params = await paramsOf(req)
          const chatId = params.get('chat_id')
          if (method !== 'getMe' && !sameChat(chatId)) return fail(400, 'Bad Request: chat not found')
          switch (method) {
            case 'getMe':
              return ok(me)
            case 'getChat':
              return ok(chatObject())
            case 'getChatMember':
              return Number(params.get('user_id')) === me.id
                ? ok({ user: me, ...member })
                : fail(400, 'Bad Request: user not found')
            case 'getChatMemberCount':
              return ok(memberCount)
            case 'sendMessage':
            case 'sendPhoto':
            case 'sendVideo':
            case 'sendMediaGroup':
              return send(method, params)
            case 'deleteMessage': {
              const i = messages.findIndex((m) => m.message_id === Number(params.get('message_id')))
              if (i < 0) return fail(400, 'Bad Request: message to delete not found')
              if (now().getTime() / 1000 - messages[i]!.date > 48 * 3600)
                return fail(400, "Bad Request: message can't be deleted for everyone")
              messages.splice(i, 1)
              return ok(true)
            }
            default:
              return fail(404, 'Not Found')
          }
        },
      ],
    ],
    () => fail(404, 'Not Found'),
  )

  return {
    ...server,
    token,
    chat,
    me,
    messages,
    /** A later call of `method` (after `skip` calls) answers this; with `afterSend` the message is sent all the same. */
    failOn: (method: string, reply: FakeReply, opts: { skip?: number; afterSend?: boolean } = {}) =>
      planned.push({ method, reply, skip: opts.skip ?? 0, afterSend: opts.afterSend ?? false }),
    setMember: (next: Member) => (member = next),
    /** The next send is queued by the network: it is made, but answered with `message_id: 0`. */
    scheduleNext: () => (scheduleNext = true),
    setMemberCount: (n: number) => (memberCount = n),
    fail,
  }
}

export type MessagingFake = Awaited<ReturnType<typeof startMessagingFake>>
