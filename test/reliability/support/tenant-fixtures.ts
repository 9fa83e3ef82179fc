/**
 * A workspace holding every kind of resource the API has, built the same way for the attacker and
 * the victim (so the i-th id of a kind in one is the twin of the i-th in the other): SANDBOX
 * accounts of several networks (a pinboard account with its boards, short-video and video-share
 * accounts, one that always fails, accounts of networks with destinations and per-target options)
 * and a connected one, media (an upload in a folder, a video, a
 * variant, an upload not yet registered), queue slots, posts in every state (draft, scheduled,
 * queued, published, failed with targets, recurring, with a title, destinations and target options)
 * sent with idempotency keys, and analytics; and the agency workflow's own: an account group, a label
 * on a post, a note, a review link, a notification for the token's user (its owner, mentioned by a
 * reviewer) and the activity entries all of that recorded.
 */
import { eq } from 'drizzle-orm'
import { apiTokens } from '../../../src/db/schema'
import type { PlatformId } from '../../../src/domain/vocabulary'
import { randomBase62 } from '../../../src/lib/ids'
import { addSandboxAccount } from '../../../src/services/accounts/accounts'
import { collectAnalytics } from '../../../src/services/analytics/collect'
import { addMember } from '../../../src/services/people/memberships'
import { createUser } from '../../../src/services/people/users'
import { runDue } from '../../support/engine'
import { seedComments } from '../../support/inbox-seed'
import { connectedAccount, media } from '../../support/fixtures'
import { jpeg, paint, upload, uploadAsset } from '../../support/media'
import { memberWithToken } from '../../support/people'
import { createTestApp, type TestApp } from '../../support/test-app'
import type { Operation } from './openapi-operations'
import { isEventStream, streamOpening } from './stream-opening'

export interface Answer {
  status: number
  headers: Headers
  text: string
  json: any
}

export interface TenantWorkspace {
  label: string
  t: TestApp
  /** Its ids by kind, in creation order. */
  ids: Record<string, string[]>
  /** A request with this workspace's token, each from its own client address (rate limits stay out of the way). */
  call(method: string, url: string, init?: { body?: unknown; headers?: Record<string, string> }): Promise<Answer>
  /** A new draft of its own (for operations that would change the post they are given). */
  freshDraft(): Promise<string>
  /** A new note on a new draft (for the operations on one note of one post). */
  freshNote(): Promise<{ postId: string; noteId: string }>
  /** A new review link of a new group (deleting a group, as the matrix does, takes its links). */
  freshReviewLink(): Promise<string>
}

let addresses = 0
const nextAddress = () => {
  const n = ++addresses
  return `10.${100 + ((n >> 16) & 63)}.${(n >> 8) & 255}.${n & 255}`
}

const DAY = 86_400_000
const EXTRA_KEYS = 16
const SANDBOX: Array<{ platform: PlatformId; failMode?: 'always' }> = [
  { platform: 'PINBOARD_NET' },
  { platform: 'SHORTVIDEO_NET' },
  { platform: 'VIDEOSHARE_NET' },
  { platform: 'CHAT_NET' },
  { platform: 'MICROBLOG_NET' },
  { platform: 'FEDERATED_NET', failMode: 'always' },
  // A destination chosen per target (listed by GET /v1/accounts/{id}/destinations), per-target
  // options and a title. Three, not all eight newer networks: each account id is a case in every
  // account place, and the matrix's time grows with them (the fuzz holds the other five).
  { platform: 'FORUM_NET' },
  { platform: 'WORKCHAT_NET' },
  { platform: 'SITE_NET' },
]

export async function createTenantWorkspace(label: string, logLines: string[]): Promise<TenantWorkspace> {
  const t = await createTestApp({ plan: 'agency', logLines })
  const ids: Record<string, string[]> = {}
  const add = (kind: string, ...values: Array<string | null | undefined>) => {
    for (const v of values) if (v && !(ids[kind] ??= []).includes(v)) ids[kind]!.push(v)
  }
  const call: TenantWorkspace['call'] = async (method, url, init = {}) => {
    const res = await t.call(method, url, {
      ...(init.body !== undefined ? { body: init.body } : {}),
      headers: { 'x-forwarded-for': nextAddress(), ...init.headers },
    })
    const text = isEventStream(res) ? await streamOpening(res) : await res.text()
    let json: any = null
    try {
      json = JSON.parse(text)
    } catch {}
    return { status: res.status, headers: res.headers, text, json }
  }
  const ok = async (method: string, url: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await call(method, url, { body, ...(headers ? { headers } : {}) })
    if (res.status !== 200) throw new Error(`${label} setup ${method} ${url}: ${res.status} ${res.text}`)
    return res.json
  }

  for (const { platform, failMode } of SANDBOX) {
    const username = `${label}_${platform.toLowerCase()}_owner`
    add(
      'account',
      (await addSandboxAccount(t.deps.db, t.deps.cipher, { workspaceId: t.workspaceId, platform, username, failMode }))
        .id,
    )
  }
  add('account', (await connectedAccount(t, 'PHOTO_NET', 'DIRECT_LOGIN')).id)
  const [pin, shortVideo, videoShare, chat, microblog, failing, forum, workchat, site] = ids.account!
  add('board', ...(await ok('GET', `/v1/accounts/${pin}/boards`)).boards.map((b: { id: string }) => b.id))
  const destinationOf = async (accountId: string) =>
    (await ok('GET', `/v1/accounts/${accountId}/destinations`)).destinations[0].id as string
  const [subreddit, channel] = [await destinationOf(forum!), await destinationOf(workchat!)]

  // Comments and a mention, as the sync stores them; their ids are unknown to the networks, so an
  // action on them ends 409 (gone) or 422 (not supported), never deleting what other cases use.
  const seed = (accountId: string, platform: string, n: number) => ({
    workspaceId: t.workspaceId,
    accountId,
    platform,
    externalId: `${label}-net-${n}`,
    createdAt: new Date(Date.UTC(2026, 10, 1, n)),
    text: `${label} comment text ${n}`,
  })
  const [topComment] = await seedComments(t.deps.db, [seed(microblog!, 'MICROBLOG_NET', 1)])
  add(
    'comment',
    topComment,
    ...(await seedComments(t.deps.db, [
      { ...seed(microblog!, 'MICROBLOG_NET', 2), parentId: topComment! },
      { ...seed(chat!, 'CHAT_NET', 3), kind: 'mention' },
    ])),
  )

  const photo = await jpeg(paint(64, 80, (x, y) => [x * 3, y * 2, label.length * 20]))
  const image = await uploadAsset(t, photo, 'image/jpeg', { altText: `${label} alt text`, folder: `${label} folder` })
  add('media', image.id)
  add('folder', image.folderId)
  add('upload', image.storageKey)
  add('upload-url', image.url)
  const video = await media(t, { type: 'VIDEO', width: 1080, height: 1920, durationSec: 20 })
  add('media', video)
  const variants = await ok('POST', `/v1/media/${image.id}/variants`, { formats: ['feed_square'] })
  add('media', ...variants.variants.map((v: { id: string }) => v.id))
  const pending = await upload(t, photo, 'image/jpeg', `${label}-pending.jpg`)
  add('upload', pending.storageKey)
  add('upload-url', pending.url)

  const weekday = (days: number) => new Date(Date.now() + days * DAY).getUTCDay()
  const slots = [
    { weekday: weekday(3), time: '12:00' },
    { weekday: weekday(4), time: '13:30' },
  ]
  add('slot', ...(await ok('PUT', '/v1/queue-slots', { slots })).slots.map((s: { id: string }) => s.id))

  const at = (days: number) => new Date(Date.now() + days * DAY).toISOString()
  const posts: Array<Record<string, unknown>> = [
    { accountIds: [chat, microblog], action: 'draft', threadParts: [`${label} thread part`] },
    {
      accountIds: [pin],
      mediaIds: [image.id],
      pinboardNetBoards: { [pin!]: ids.board![0] },
      action: 'schedule',
      scheduledAt: at(7),
    },
    { accountIds: [chat], action: 'queue' },
    {
      accountIds: [shortVideo],
      type: 'REEL',
      mediaIds: [video],
      videoNetOptions: { [shortVideo!]: {} },
      action: 'draft',
    },
    { accountIds: [videoShare], type: 'REEL', mediaIds: [video], action: 'draft' },
    { accountIds: [chat], action: 'now' },
    { accountIds: [failing], action: 'now' },
    { accountIds: [microblog], action: 'schedule', scheduledAt: at(2), recurrence: { frequency: 'weekly' } },
    {
      accountIds: [forum, site],
      title: `${label} title`,
      destinations: { [forum!]: subreddit },
      targetOptions: { [forum!]: { nsfw: false, spoiler: true }, [site!]: { kind: 'post', status: 'draft' } },
      action: 'schedule',
      scheduledAt: at(5),
    },
    {
      accountIds: [workchat],
      title: `${label} title now`,
      destinations: { [workchat!]: channel },
      action: 'now',
    },
  ]
  for (const [i, post] of posts.entries()) {
    const key = `${label}-key-${i}`
    const body = { type: 'IMAGE', mediaIds: [], caption: `${label} caption ${i}`, ...post }
    add('post', (await ok('POST', '/v1/posts', body, { 'idempotency-key': key })).id)
    add('idempotency-key', key)
  }
  // More keys, on upload tickets (cheap): the matrix sends each of them to one operation only.
  for (let i = 0; i < EXTRA_KEYS; i++) {
    const key = `${label}-upload-key-${i}`
    await ok(
      'POST',
      '/v1/media/uploads',
      { filename: `${label}-${i}.jpg`, contentType: 'image/jpeg' },
      { 'idempotency-key': key },
    )
    add('idempotency-key', key)
  }
  await runDue(t, t.publishQueue)
  await collectAnalytics(t.deps, { workspaceId: t.workspaceId, now: new Date() })
  for (const id of ids.post!) add('target', ...(await ok('GET', `/v1/posts/${id}`)).targets.map((x: any) => x.id))
  // Webhook endpoints (sending to a closed loopback port) and the workspace's events.
  for (const events of [['post.published'], ['post.failed', 'post.deleted']]) {
    add('webhookEndpoint', (await ok('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events })).id)
  }
  add('webhookEvent', ...(await ok('GET', '/v1/events')).data.map((e: { id: string }) => e.id))
  await addAgencyWork(t, { ok, add, ids, label })

  return {
    label,
    t,
    ids,
    call,
    async freshDraft() {
      const body = { type: 'IMAGE', accountIds: [pin], mediaIds: [], action: 'draft', caption: `${label} host` }
      return (await ok('POST', '/v1/posts', body)).id
    },
    async freshNote() {
      const body = { type: 'IMAGE', accountIds: [pin], mediaIds: [], action: 'draft', caption: `${label} host` }
      const postId = (await ok('POST', '/v1/posts', body)).id
      return { postId, noteId: (await ok('POST', `/v1/posts/${postId}/notes`, { body: `${label} host note` })).id }
    },
    async freshReviewLink() {
      const group = await ok('POST', '/v1/groups', { name: `${label} host ${randomBase62(6)}` })
      return (await ok('POST', '/v1/review-links', { groupId: group.id, name: `${label} host client` })).id
    },
  }
}

interface AgencySetup {
  ok: (method: string, url: string, body?: unknown) => Promise<any>
  add: (kind: string, ...values: Array<string | null | undefined>) => void
  ids: Record<string, string[]>
  label: string
}

/**
 * The workspace's token gets a user (its owner, so the notification routes answer it), then: a group
 * of two accounts, a label on the first post, a note on it, a review link of the group, and a
 * reviewer's note mentioning the owner (the owner's notification). Activity entries record it all.
 */
async function addAgencyWork(t: TestApp, { ok, add, ids, label }: AgencySetup) {
  const owner = await createUser(t.deps, {
    email: `${label}-owner-${randomBase62(8)}@example.com`,
    name: `${label} owner`,
    password: 'a long enough password 7',
  })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, owner.id, 'owner'))
  await t.deps.db.update(apiTokens).set({ userId: owner.id }).where(eq(apiTokens.workspaceId, t.workspaceId))
  const [chat, microblog] = [ids.account![3]!, ids.account![4]!]
  const group = await ok('POST', '/v1/groups', { name: `${label} brand`, accountIds: [chat, microblog] })
  add('group', group.id)
  const tag = await ok('POST', '/v1/labels', { name: `${label} campaign` })
  add('label', tag.id)
  const post = ids.post![0]!
  await ok('PATCH', `/v1/posts/${post}`, { labelIds: [tag.id] })
  add('note', (await ok('POST', `/v1/posts/${post}/notes`, { body: `${label} note text` })).id)
  add('reviewLink', (await ok('POST', '/v1/review-links', { groupId: group.id, name: `${label} client` })).id)
  const reviewer = await memberWithToken(t, 'reviewer', `${label} reviewer`)
  const mention = await t.call('POST', `/v1/posts/${post}/notes`, {
    token: reviewer.token,
    body: { body: `${label} asks the owner`, mentions: [owner.id] },
  })
  if (mention.status !== 200) throw new Error(`${label} setup mention: ${mention.status} ${await mention.text()}`)
  add('user', owner.id, reviewer.id)
  // GET /v1/activity's filters: an actor (a user) and a subject (the post) of the entries.
  add('actor', owner.id, reviewer.id)
  add('subject', post)
  add('notification', ...(await ok('GET', '/v1/notifications')).data.map((n: { id: string }) => n.id))
  if (!ids.notification?.length) throw new Error(`${label} setup: the owner has no notification`)
  const activity = (await ok('GET', '/v1/activity')).data as Array<{ id: string; subject: { id: string | null } }>
  add('activity', ...activity.map((a) => a.id))
}

/** A workspace's own view: every GET operation of the document, once or per id of its path's kind. */
export async function viewOf(ws: TenantWorkspace, ops: Operation[], kindOf: (op: Operation) => string | null) {
  const view: Record<string, string> = {}
  for (const op of ops.filter((o) => o.method === 'GET')) {
    const kind = kindOf(op)
    const urls = kind === null ? [op.path] : (ws.ids[kind] ?? []).map((id) => op.path.replace(/\{[^}]+\}/, id))
    for (const url of urls) {
      const res = await ws.call('GET', url)
      view[url] = `${res.status} ${stable(res.json ?? res.text)}`
    }
  }
  return view
}

/**
 * JSON without what changes by itself between two identical reads: request ids, computation times,
 * and analytics' default period (the last 30 days up to today moves at midnight UTC).
 */
export function stable(value: unknown): string {
  return JSON.stringify(value, (k, v) => (k === 'requestId' || k === 'generatedAt' || k === 'period' ? undefined : v))
}

/** Every string a view holds (ids, texts, names, URLs), for the leak check. */
export function stringsOf(view: Record<string, string>): Set<string> {
  const out = new Set<string>()
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.add(v)
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x)
  }
  for (const [url, entry] of Object.entries(view)) {
    out.add(url.split('/').pop()!)
    try {
      walk(JSON.parse(entry.slice(entry.indexOf(' ') + 1)))
    } catch {}
  }
  return out
}

/** A value of the same shape that was never issued: its ids re-drawn, other letters and digits re-drawn in kind. */
export function neverIssued(value: string): string {
  const swapped = value.replace(/\b([a-z]+)_[0-9A-Za-z]{22}\b/g, (_, p: string) => `${p}_${randomBase62(22)}`)
  if (swapped !== value) return swapped
  const pick = (chars: string) => chars[Math.floor(Math.random() * chars.length)]!
  return value.replace(/[0-9A-Za-z]/g, (c) => (/\d/.test(c) ? pick('0123456789') : pick('abcdefghijkmnopqrstuvwxyz')))
}
