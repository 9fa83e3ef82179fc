import { newWebhookSecret, signedHeaders } from '../../services/webhooks/signing'
import { UsageError } from '../args'
import { defineRemoteCommand, type RemoteContext } from '../remote/context'
import { clip, list } from '../remote/format'
import { followEvents, type SseMessage } from '../remote/sse'

/** A delivery's body, as webhooks receive it. */
interface EventPayload {
  id: string
  type: string
  createdAt: string
  data?: unknown
}

const types = {
  type: 'string',
  value: '<type,type>',
  description: 'only these event types (default: all), e.g. post.published,post.failed',
} as const

const parse = (message: SseMessage): EventPayload | null => {
  try {
    return JSON.parse(message.data) as EventPayload
  } catch {
    return null
  }
}

const follow = (ctx: RemoteContext, typeList: string[], onEvent: (m: SseMessage) => Promise<void> | void) =>
  followEvents({
    api: ctx.api(),
    types: typeList,
    signal: ctx.signal,
    onEvent,
    onNotice: (line) => ctx.terminal.err(line),
  })

export const eventsTail = defineRemoteCommand({
  summary: "Print the workspace's events as they happen, one line each, until Ctrl-C (reconnects by itself)",
  options: { types },
  examples: ['events tail', 'events tail --types post.published,post.failed --json'],
  run: async (ctx, o) => {
    await follow(ctx, list(o.types), (message) => {
      const event = parse(message)
      if (ctx.json || !event) return ctx.terminal.out(message.data)
      ctx.terminal.out(
        `${event.createdAt}  ${event.type.padEnd(22)}  ${event.id}  ${clip(JSON.stringify(event.data ?? {}), 100)}`,
      )
    })
    return undefined
  },
})

/** The secret `listen` signs with: the config's, else a new one kept there for the next run. */
async function listenSecret(ctx: RemoteContext): Promise<string> {
  if (ctx.config.listenSecret) return ctx.config.listenSecret
  const secret = newWebhookSecret()
  await ctx.saveConfig({ ...ctx.config, listenSecret: secret })
  return secret
}

const FORWARD_TIMEOUT_MS = 10_000

/** POSTs one event to the receiver signed the Standard Webhooks way; answers its status or why not. */
async function forward(to: string, secret: string, message: SseMessage): Promise<{ status?: number; error?: string }> {
  const event = parse(message)
  const id = event?.id ?? message.id ?? 'unknown'
  try {
    const res = await fetch(to, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'sps-cli-listen',
        ...signedHeaders([secret], { id, timestamp: new Date(), body: message.data }),
      },
      body: message.data,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    })
    await res.body?.cancel()
    return { status: res.status }
  } catch (err) {
    const e = err as { name?: string; message?: string; cause?: { code?: string } }
    return { error: e.name === 'TimeoutError' ? 'no answer within 10 s' : (e.cause?.code ?? e.message ?? 'failed') }
  }
}

export const listen = defineRemoteCommand({
  summary: 'Forward live events to a local URL, signed like webhooks, until Ctrl-C',
  options: {
    'forward-to': {
      type: 'string',
      required: true,
      value: '<url>',
      description: 'where each event is POSTed (your machine: localhost is fine)',
    },
    types,
  },
  examples: [
    'listen --forward-to http://localhost:3000/hooks',
    'listen --forward-to http://localhost:3000/hooks --types post.failed',
  ],
  run: async (ctx, o) => {
    if (!/^https?:\/\//.test(o['forward-to'])) throw new UsageError('--forward-to must be an http:// or https:// URL')
    const api = ctx.api()
    const secret = await listenSecret(ctx)
    ctx.terminal.err(`Your webhook signing secret is ${secret} (kept in ${ctx.configFile} for the next run)`)
    ctx.terminal.err(`Forwarding events from ${api.url} to ${o['forward-to']}; Ctrl-C to stop.`)
    await follow(ctx, list(o.types), async (message) => {
      const event = parse(message)
      const result = await forward(o['forward-to'], secret, message)
      if (ctx.json)
        return ctx.terminal.out(JSON.stringify({ id: event?.id ?? message.id, type: event?.type, ...result }))
      const outcome = result.status !== undefined ? `${result.status}` : `failed: ${result.error}`
      ctx.terminal.out(
        `${new Date().toISOString()}  ${event?.type ?? message.event}  ${event?.id ?? message.id}  -> ${outcome}`,
      )
    })
    return undefined
  },
})
