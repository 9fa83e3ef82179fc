import { randomUUID } from 'node:crypto'
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhooks/events'
import { defineRemoteCommand } from '../remote/context'
import { fields, list, table } from '../remote/format'

interface Endpoint {
  id: string
  url: string
  events: string[]
  enabled: boolean
  description: string | null
  secret?: string
}

export const webhooksList = defineRemoteCommand({
  summary: "The workspace's webhook endpoints (never their secrets)",
  options: {},
  examples: ['webhooks list'],
  run: async (ctx) => {
    const res = await ctx.api().request('GET', '/v1/webhooks')
    const endpoints = res.json as Endpoint[]
    return {
      json: res.text,
      text: table(
        ['ID', 'URL', 'ENABLED', 'EVENTS'],
        endpoints.map((e) => [e.id, e.url, e.enabled ? 'yes' : 'no', e.events.join(',')]),
        'No webhook endpoints.',
      ),
    }
  },
})

export const webhooksCreate = defineRemoteCommand({
  summary: 'Add a webhook endpoint; prints its signing secret once',
  options: {
    endpoint: { type: 'string', required: true, value: '<url>', description: 'where events are POSTed (https)' },
    events: {
      type: 'string',
      required: true,
      value: '<type,type>',
      description: `event types: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    },
    description: { type: 'string', value: '<text>', description: 'a note for people' },
  },
  examples: ['webhooks create --endpoint https://hooks.example.com/sps --events post.published,post.failed'],
  run: async (ctx, o) => {
    const body = {
      url: o.endpoint,
      events: list(o.events),
      ...(o.description !== undefined ? { description: o.description } : {}),
    }
    const res = await ctx.api().request('POST', '/v1/webhooks', { body, headers: { 'idempotency-key': randomUUID() } })
    const e = res.json as Endpoint
    return {
      json: res.text,
      text: `${fields([
        ['id', e.id],
        ['url', e.url],
        ['events', e.events.join(', ')],
        ['secret', e.secret ?? '-'],
      ])}\nKeep the secret now: it is shown only once.`,
    }
  },
})
