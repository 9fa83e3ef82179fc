/**
 * The workplace chat fake's inbox methods, from the Web API reference: `users.conversations`
 * (the conversations the token's user, here the bot, is a member of; cursor paging) and
 * `reactions.add` (`channel`, `name` without colons, `timestamp`; `already_reacted`,
 * `message_not_found`, `invalid_name`). History and replies page in workchat.ts.
 */
import type { FakeReply, FakeRequest, FakeRoute } from './fake-server'
import type { FakeChannel, FakeMessage } from './workchat'

interface Ctx {
  state: { channels: FakeChannel[]; messages: FakeMessage[]; pageSizeCap: number }
  authed(handler: (req: FakeRequest) => FakeReply | Promise<FakeReply>): (req: FakeRequest) => Promise<FakeReply>
  jsonBody(req: FakeRequest): Record<string, any> | null
  botUser: string
}

const ok = (body: Record<string, unknown> = {}): FakeReply => ({ json: { ok: true, ...body } })
const fail = (error: string): FakeReply => ({ json: { ok: false, error } })
/** Emoji names the fake knows (the reference refuses unknown ones with `invalid_name`). */
const EMOJI = new Set(['thumbsup', '+1', 'heart', 'eyes', 'white_check_mark'])

export function workchatInboxRoutes(ctx: Ctx & Record<string, unknown>): FakeRoute[] {
  const { state, authed, jsonBody, botUser } = ctx
  return [
    [
      'GET',
      '/api/users.conversations',
      authed((req) => {
        const types = (req.query.get('types') ?? 'public_channel').split(',')
        const listed = state.channels.filter(
          (c) =>
            c.members.has(botUser) &&
            types.includes(c.is_private ? 'private_channel' : 'public_channel') &&
            !(req.query.get('exclude_archived') === 'true' && c.is_archived),
        )
        const size = Math.min(Number(req.query.get('limit') ?? 100), state.pageSizeCap)
        const cursor = req.query.get('cursor')
        const start = cursor ? Number(Buffer.from(cursor, 'base64').toString().replace('offset:', '')) : 0
        const more = start + size < listed.length
        return ok({
          channels: listed
            .slice(start, start + size)
            .map((c) => ({ id: c.id, name: c.name, is_private: c.is_private, is_archived: c.is_archived })),
          response_metadata: { next_cursor: more ? Buffer.from(`offset:${start + size}`).toString('base64') : '' },
        })
      }),
    ],
    [
      'POST',
      '/api/reactions.add',
      authed((req) => {
        const body = jsonBody(req)
        if (!body || typeof body.name !== 'string' || typeof body.timestamp !== 'string')
          return fail('invalid_arguments')
        if (!EMOJI.has(body.name)) return fail('invalid_name')
        const channel = state.channels.find((c) => c.id === body.channel)
        if (!channel?.members.has(botUser)) return fail('channel_not_found')
        const m = state.messages.find((x) => x.channel === channel.id && x.ts === body.timestamp)
        if (!m) return fail('message_not_found')
        const r = m.reactions.find((x) => x.name === body.name)
        if (r?.users.includes(botUser)) return fail('already_reacted')
        if (r) {
          r.users.push(botUser)
          r.count++
        } else m.reactions.push({ name: body.name, count: 1, users: [botUser] })
        return ok()
      }),
    ],
  ]
}
