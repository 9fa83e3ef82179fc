import { randomUUID } from 'node:crypto'
import { UsageError } from '../args'
import { defineRemoteCommand, type RemoteOutput } from '../remote/context'
import { clip, fields, list, table, when } from '../remote/format'

interface Target {
  accountId: string
  platform: string
  status: string
  permalink: string | null
  error: { message: string } | null
}
interface Post {
  id: string
  status: string
  type: string
  caption: string | null
  accountIds: string[]
  mediaIds: string[]
  scheduledAt: string | null
  publishedAt: string | null
  targets: Target[]
}

const id = [{ name: 'id', description: 'the post (post_…)' }] as const

/** A post for people: its fields, then one line per target. */
function postText(post: Post): string {
  return [
    fields([
      ['id', post.id],
      ['status', post.status],
      ['type', post.type],
      ['caption', clip(post.caption, 70) || '-'],
      ['scheduled', when(post.scheduledAt)],
      ['published', when(post.publishedAt)],
      ['media', post.mediaIds.join(', ') || '-'],
    ]),
    '',
    table(
      ['ACCOUNT', 'PLATFORM', 'STATUS', 'PERMALINK / ERROR'],
      post.targets.map((t) => [t.accountId, t.platform, t.status, t.error?.message ?? t.permalink ?? '']),
    ),
  ].join('\n')
}

const postOutput = (text: string, json: unknown): RemoteOutput => ({ json: text, text: postText(json as Post) })

/** The create body's `action` and `scheduledAt` from --at, --now, --queue (at most one; none: a draft). */
function timing(o: { at?: string | undefined; now?: boolean | undefined; queue?: boolean | undefined }) {
  const chosen = [o.at !== undefined && '--at', o.now && '--now', o.queue && '--queue'].filter(Boolean)
  if (chosen.length > 1) throw new UsageError(`choose one of ${chosen.join(', ')}`)
  if (o.at !== undefined) return { action: 'schedule', scheduledAt: o.at }
  if (o.now) return { action: 'now' }
  if (o.queue) return { action: 'queue' }
  return { action: 'draft' }
}

export const postsCreate = defineRemoteCommand({
  summary: 'Create a post: a draft, or with --at, --now or --queue scheduled, published or queued',
  options: {
    text: { type: 'string', value: '<caption>', description: 'the caption' },
    accounts: { type: 'string', required: true, value: 'acc_…,acc_…', description: 'destination accounts' },
    media: { type: 'string', value: 'med_…,med_…', description: 'media assets, in order (default: none)' },
    type: { type: 'string', value: '<type>', description: 'IMAGE (default), CAROUSEL, REEL or STORY' },
    at: { type: 'string', value: '<ISO time>', description: 'schedule for then, e.g. 2026-12-01T09:30:00Z' },
    now: { type: 'boolean', description: 'publish now' },
    queue: { type: 'boolean', description: "take the workspace queue's next free slot" },
    'idempotency-key': { type: 'string', value: '<key>', description: 'make a retry safe (default: a new UUID)' },
  },
  examples: [
    'posts create --text "Hello" --accounts acc_1,acc_2',
    'posts create --text "Launch" --accounts acc_1 --media med_1 --at 2026-12-01T09:30:00Z',
  ],
  run: async (ctx, o) => {
    const body = {
      type: o.type ?? 'IMAGE',
      accountIds: list(o.accounts),
      mediaIds: list(o.media),
      ...(o.text !== undefined ? { caption: o.text } : {}),
      ...timing(o),
    }
    const headers = { 'idempotency-key': o['idempotency-key'] ?? randomUUID() }
    const res = await ctx.api().request('POST', '/v1/posts', { body, headers })
    return postOutput(res.text, res.json)
  },
})

export const postsList = defineRemoteCommand({
  summary: "The workspace's posts, newest first",
  options: {
    status: { type: 'string', value: '<status>', description: 'DRAFT, SCHEDULED, PUBLISHING, PUBLISHED or FAILED' },
    limit: { type: 'string', value: '<n>', description: 'at most this many (1-100; default 20)' },
    page: { type: 'string', value: '<n>', description: 'this page (from 1); the JSON is then a page envelope' },
  },
  examples: ['posts list', 'posts list --status SCHEDULED --limit 50'],
  run: async (ctx, o) => {
    const res = await ctx.api().request('GET', '/v1/posts', {
      query: { status: o.status, limit: o.limit, page: o.page },
    })
    const posts = (Array.isArray(res.json) ? res.json : (res.json as { data: Post[] }).data) as Post[]
    return {
      json: res.text,
      text: table(
        ['ID', 'STATUS', 'WHEN', 'TARGETS', 'CAPTION'],
        posts.map((p) => [
          p.id,
          p.status,
          when(p.publishedAt ?? p.scheduledAt),
          String(p.targets.length),
          clip(p.caption),
        ]),
        'No posts.',
      ),
    }
  },
})

export const postsGet = defineRemoteCommand({
  summary: 'One post with each target: status, permalink or error',
  options: {},
  positionals: id,
  examples: ['posts get post_…'],
  run: async (ctx, o) => {
    const res = await ctx.api().request('GET', `/v1/posts/${encodeURIComponent(o.id)}`)
    return postOutput(res.text, res.json)
  },
})

export const postsPublish = defineRemoteCommand({
  summary: 'Publish a draft or scheduled post now',
  options: {},
  positionals: id,
  examples: ['posts publish post_…'],
  run: async (ctx, o) => {
    const res = await ctx.api().request('POST', `/v1/posts/${encodeURIComponent(o.id)}/publish`, {
      headers: { 'idempotency-key': randomUUID() },
    })
    return postOutput(res.text, res.json)
  },
})

export const postsDelete = defineRemoteCommand({
  summary: 'Delete our record of a post; with --from-networks first what it published on the networks',
  options: {
    'from-networks': { type: 'boolean', description: 'also delete it from each network that allows it' },
  },
  positionals: id,
  examples: ['posts delete post_…', 'posts delete post_… --from-networks'],
  run: async (ctx, o) => {
    const res = await ctx.api().request('DELETE', `/v1/posts/${encodeURIComponent(o.id)}`, {
      query: { fromNetworks: o['from-networks'] ? 'true' : undefined },
    })
    const body = res.json as {
      deleted: boolean
      targets?: Array<{ accountId: string; platform: string; outcome: string; message: string }>
    }
    const head = body.deleted ? `Deleted ${o.id}.` : `Kept ${o.id}: some targets still need action.`
    if (!body.targets) return { json: res.text, text: head }
    const rows = body.targets.map((t) => [t.accountId, t.platform, t.outcome, t.message])
    return { json: res.text, text: `${head}\n${table(['ACCOUNT', 'PLATFORM', 'OUTCOME', 'MESSAGE'], rows)}` }
  },
})
