/**
 * A workspace that looks used, seeded through the services and the API (several accounts on different
 * networks, posts in every state, a failed target, media in a folder, analytics history, a webhook, a
 * second member and an invitation), and the list of every dashboard page as data: one line per page.
 */
import { eq } from 'drizzle-orm'
import { targets } from '../../src/db/schema'
import type { PlatformId } from '../../src/domain/vocabulary'
import { randomBase62 } from '../../src/lib/ids'
import { addSandboxAccount } from '../../src/services/accounts/accounts'
import { registerAgentClient } from '../../src/services/agent-oauth/clients'
import { createInvitation } from '../../src/services/people/invitations'
import { editAsset } from '../../src/services/media/edit'
import { addMember } from '../../src/services/people/memberships'
import type { Caller } from '../../src/services/caller'
import { createNote } from '../../src/services/notes/notes'
import { createUser } from '../../src/services/people/users'
import { scoredPost, writeHistory } from './analytics-history'
import { runDue } from './engine'
import { seedComment } from './inbox-comments'
import { account, storedMedia } from './fixtures'
import { jpeg, paint } from './media'
import type { TestApp } from './test-app'

export interface Seeded {
  owner: { email: string; password: string }
  accountId: string
  mediaId: string
  posts: {
    draft: string
    scheduled: string
    queued: string
    published: string
    failed: string
    thread: string
    inReview: string
    changesRequested: string
  }
  invitationToken: string
  consentQuery: string
  /** A comment on the published post (the inbox's opened view). */
  commentId: string
}

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** What the seeded workspace published over the past month (for the calendar and analytics). */
const PAST_CAPTIONS = [
  'Monday roast: a washed Kenyan with blackcurrant notes.',
  'Behind the bar: how we dial in the espresso each morning.',
  'New mugs are in, glazed by a potter down the street.',
  'Cold brew is back for the weekend.',
  'Meet Ana, who runs our Saturday cupping.',
  'Five minutes to a better pour-over at home.',
]

/** The API's answer, or the test stops with what it said. */
async function api<T>(t: TestApp, method: string, path: string, body?: unknown): Promise<T> {
  const res = await t.call(method, path, body === undefined ? {} : { body })
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/** A photo of a gradient (its colours vary by `hue`), stored and registered as an upload would be. */
async function photo(t: TestApp, hue: number, size: [number, number], altText: string) {
  const bytes = await jpeg(paint(size[0], size[1], (x, y) => [(x + hue) % 256, (y * 2) % 256, (hue * 3) % 256]))
  return storedMedia(t, { bytes, mimeType: 'image/jpeg', width: size[0], height: size[1], altText })
}

/** A few comments and a mention on the published post's first target, one answered; answers a comment's id. */
async function seedInbox(t: TestApp, micro: { id: string; platform: PlatformId }, postId: string) {
  const [row] = await t.deps.db.select().from(targets).where(eq(targets.postId, postId))
  const target = { id: row!.id, postId, platformPostId: row!.platformPostId }
  const at = (m: number) => new Date(t.deps.clock.now().getTime() - m * 60_000)
  const first = await seedComment(t, {
    account: micro,
    target,
    text: 'Do you open earlier on Saturdays? Asking for a very sleepy friend.',
    authorName: 'Priya Raman',
    authorHandle: 'priya.r',
    createdAt: at(30),
  })
  await seedComment(t, {
    account: micro,
    target,
    parentId: first,
    fromAccount: true,
    authorName: 'northwind.coffee',
    text: 'From eight on Saturdays!',
    createdAt: at(25),
    state: 'read',
  })
  await seedComment(t, { account: micro, target, text: '<b>bold?</b> no, plain text', createdAt: at(10) })
  await seedComment(t, {
    account: micro,
    kind: 'mention',
    text: '@northwind.coffee best flat white in town',
    createdAt: at(5),
  })
  return first
}

/** Seeds the test workspace; `baseUrl` is where the app is served (the agent's resource). */
export async function seedWorkspace(t: TestApp, baseUrl: string): Promise<Seeded> {
  const password = `every page ${randomBase62(8)}`
  const email = `olga-${randomBase62(6)}@example.com`
  const owner = await createUser(t.deps, { email, name: 'Olga Owner', password })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, owner.id, 'owner'))
  const editor = await createUser(t.deps, {
    email: `mika-${randomBase62(6)}@example.com`,
    name: 'Mika Member',
    password: `member ${randomBase62(12)}`,
  })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, editor.id, 'member'))

  const micro = await account(t, 'MICROBLOG_NET', 'northwind.coffee')
  const pro = await account(t, 'PROFESSIONAL_NET', 'northwind-roasters')
  const threads = await account(t, 'TEXTTHREAD_NET', 'northwind.threads')
  const photos = await account(t, 'PHOTO_NET', 'northwind.photos')
  const pins = await account(t, 'PINBOARD_NET', 'northwind-pins')
  const broken = await addSandboxAccount(t.deps.db, t.deps.cipher, {
    workspaceId: t.workspaceId,
    platform: 'CHAT_NET',
    username: 'northwind-chat-with-a-rather-long-handle',
    failMode: 'always',
  })

  const beans = await photo(t, 30, [1080, 1350], 'A bag of single-origin beans on a wooden table')
  const cups = await photo(t, 120, [1600, 900], 'Three cups of coffee seen from above')
  await photo(t, 200, [1080, 1080], 'The roastery at dawn')
  await editAsset(t.deps, t.workspaceId, beans, { folder: 'Winter launch' })

  const boards = await api<{ boards: { id: string }[] }>(t, 'GET', `/v1/accounts/${pins.id}/boards`)
  await api(t, 'PUT', '/v1/queue-slots', {
    slots: [
      { weekday: 1, time: '09:00' },
      { weekday: 3, time: '12:30' },
      { weekday: 5, time: '17:00' },
    ],
  })
  const post = (body: Record<string, unknown>) =>
    api<{ id: string }>(t, 'POST', '/v1/posts', { type: 'IMAGE', mediaIds: [], ...body })
  const at = (ms: number) => new Date(Date.now() + ms).toISOString()

  const draft = await post({
    accountIds: [micro.id, pro.id],
    caption: 'Draft: tasting notes for the new Ethiopian roast',
    action: 'draft',
  })
  const scheduled = await post({
    accountIds: [micro.id, pro.id, photos.id, pins.id],
    mediaIds: [beans],
    caption: 'Our winter blend is back: dark chocolate, orange peel and a long finish. #coffee #winter',
    action: 'schedule',
    scheduledAt: at(26 * HOUR),
    pinboardNetBoards: { [pins.id]: boards.boards[0]!.id },
  })
  // A crowded hour (the calendar's "+N more") and a few more days of the week.
  for (const [i, offset] of [2, 2, 2, 2, 50, 74].entries())
    await post({
      accountIds: [[micro.id, pro.id, threads.id][i % 3]!],
      caption: `Brew guide part ${i + 1}: grind, water, time.`,
      action: 'schedule',
      scheduledAt: at(offset * HOUR + i * 60_000),
    })
  const queued = await post({
    accountIds: [threads.id],
    caption: 'From the queue: our barista picks.',
    action: 'queue',
  })
  const thread = await post({
    accountIds: [threads.id, micro.id],
    caption: 'How we roast, in six parts (a thread).',
    threadParts: Array.from({ length: 5 }, (_, i) => `Part ${i + 2}: ${'slow heat, patience, '.repeat(4)}`),
    action: 'schedule',
    scheduledAt: at(3 * DAY),
  })
  const published = await post({
    accountIds: [micro.id, pro.id],
    mediaIds: [cups],
    caption: 'Doors open at nine.',
    action: 'now',
  })
  const failed = await post({ accountIds: [micro.id, broken.id], caption: 'Tonight: latte art night.', action: 'now' })
  await runDue(t, t.publishQueue)
  const { inReview, changesRequested } = await seedReview(t, {
    accountIds: [micro.id, photos.id],
    mediaIds: [cups],
    scheduledAt: at(2 * DAY),
    author: { id: editor.id, name: 'Mika Member' },
  })
  const commentId = await seedInbox(t, micro, published.id)

  const now = Date.now()
  await writeHistory(
    t,
    Array.from({ length: 24 }, (_, i) => ({
      ...scoredPost([micro, pro, photos][i % 3]!, new Date(now - (i + 1) * 1.2 * DAY), 40 + ((i * 37) % 90)),
      caption: PAST_CAPTIONS[i % PAST_CAPTIONS.length],
    })),
  )

  await api(t, 'POST', '/v1/webhooks', {
    url: 'https://hooks.example.com/northwind/social-publishing',
    events: ['post.published', 'post.failed'],
    description: 'Slack relay',
  })
  const invitation = await createInvitation(t.deps.db, {
    workspaceId: t.workspaceId,
    role: 'member',
    invitedBy: owner.id,
    now: t.deps.clock.now(),
  })
  const client = await registerAgentClient(t.deps.db, {
    client_name: 'Northwind planning agent',
    redirect_uris: ['http://127.0.0.1:9/callback'],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  })
  const consentQuery = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: 'http://127.0.0.1:9/callback',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    resource: `${baseUrl}/mcp`,
    state: 'every-page',
  }).toString()

  return {
    owner: { email, password },
    accountId: micro.id,
    mediaId: beans,
    posts: {
      draft: draft.id,
      scheduled: scheduled.id,
      queued: queued.id,
      published: published.id,
      failed: failed.id,
      thread: thread.id,
      inReview,
      changesRequested,
    },
    invitationToken: invitation.token,
    consentQuery,
    commentId,
  }
}

/** A group, a label, a post in review with a note, and one sent back with a comment (the review states' pages). */
async function seedReview(
  t: TestApp,
  post: { accountIds: string[]; mediaIds: string[]; scheduledAt: string; author: { id: string; name: string } },
) {
  const { accountIds, mediaIds, scheduledAt } = post
  const label = await api<{ id: string }>(t, 'POST', '/v1/labels', { name: 'Spring campaign', color: '#2f855a' })
  await api(t, 'POST', '/v1/groups', { name: 'Northwind café', accountIds })
  const draft = (caption: string) =>
    api<{ id: string }>(t, 'POST', '/v1/posts', {
      type: 'IMAGE',
      mediaIds,
      accountIds,
      caption,
      labelIds: [label.id],
      action: 'draft',
    })
  const inReview = await draft('Spring menu: cherry blossom latte, from Monday. #spring')
  await api(t, 'POST', `/v1/posts/${inReview.id}/submit`, {
    action: 'schedule',
    scheduledAt,
    note: 'First post of the spring campaign; the price is on the board.',
  })
  const author: Caller = {
    workspaceId: t.workspaceId,
    access: { role: 'member', groupIds: null },
    actor: { kind: 'user', ...post.author },
    userId: post.author.id,
    ip: null,
  }
  await createNote(t.deps, author, inReview.id, { body: 'Photo is from the Tuesday shoot; the cups are ours.' })
  const changes = await draft('Spring hours: open until 8pm.')
  await api(t, 'POST', `/v1/posts/${changes.id}/submit`, { action: 'queue' })
  await api(t, 'POST', `/v1/posts/${changes.id}/request-changes`, {
    comment: 'We close at 7 on Sundays; say "until 8pm, Monday to Saturday".',
  })
  return { inReview: inReview.id, changesRequested: changes.id }
}

/** Who visits a page: nobody signed in, the workspace's owner, or anyone on an app whose database fails. */
export type Visitor = 'visitor' | 'owner' | 'broken'

export interface DashboardPage {
  /** Names the page in failures, and its screenshots (`<name>-light.png`, `-dark`, `-phone`) when `shot`. */
  name: string
  visitor: Visitor
  /** The address under the app's origin. */
  path: (s: Seeded, workspace: string) => string
  /** The answer the page is (200 unless said). */
  status?: number
  /** Saved with SCREENSHOTS_DIR set. */
  shot?: boolean
}

/** Every page of the dashboard. A new page is one line here. */
export const DASHBOARD_PAGES: DashboardPage[] = [
  { name: 'sign-in', visitor: 'visitor', path: () => '/app/sign-in', shot: true },
  { name: 'sign-up', visitor: 'visitor', path: () => '/app/sign-up' },
  { name: 'invitation-visitor', visitor: 'visitor', path: (s) => `/app/invitations/${s.invitationToken}` },
  { name: 'not-found-public', visitor: 'visitor', path: () => '/app/no-such-page', status: 404 },
  { name: 'home', visitor: 'owner', path: (_, w) => w },
  { name: 'calendar', visitor: 'owner', path: (_, w) => `${w}/calendar`, shot: true },
  { name: 'calendar-month', visitor: 'owner', path: (_, w) => `${w}/calendar?view=month`, shot: true },
  { name: 'calendar-list', visitor: 'owner', path: (_, w) => `${w}/calendar?view=list`, shot: true },
  { name: 'composer', visitor: 'owner', path: (_, w) => `${w}/compose`, shot: true },
  { name: 'composer-edit', visitor: 'owner', path: (s, w) => `${w}/posts/${s.posts.scheduled}/edit`, shot: true },
  { name: 'post-draft', visitor: 'owner', path: (s, w) => `${w}/posts/${s.posts.draft}` },
  { name: 'post-in-review', visitor: 'owner', path: (s, w) => `${w}/posts/${s.posts.inReview}`, shot: true },
  { name: 'post-changes-requested', visitor: 'owner', path: (s, w) => `${w}/posts/${s.posts.changesRequested}` },
  { name: 'composer-changes', visitor: 'owner', path: (s, w) => `${w}/posts/${s.posts.changesRequested}/edit` },
  { name: 'review', visitor: 'owner', path: (_, w) => `${w}/review`, shot: true },
  { name: 'post-scheduled', visitor: 'owner', path: (s, w) => `${w}/posts/${s.posts.scheduled}` },
  { name: 'post-queued', visitor: 'owner', path: (s, w) => `${w}/posts/${s.posts.queued}` },
  { name: 'post-thread', visitor: 'owner', path: (s, w) => `${w}/posts/${s.posts.thread}` },
  { name: 'post-published', visitor: 'owner', path: (s, w) => `${w}/posts/${s.posts.published}`, shot: true },
  { name: 'post-failed', visitor: 'owner', path: (s, w) => `${w}/posts/${s.posts.failed}`, shot: true },
  { name: 'accounts', visitor: 'owner', path: (_, w) => `${w}/accounts`, shot: true },
  {
    name: 'account-disconnect',
    visitor: 'owner',
    path: (s, w) => `${w}/accounts/${s.accountId}/disconnect`,
  },
  { name: 'media', visitor: 'owner', path: (_, w) => `${w}/media`, shot: true },
  { name: 'media-canvases', visitor: 'owner', path: (s, w) => `${w}/media/${s.mediaId}/canvases` },
  { name: 'queue', visitor: 'owner', path: (_, w) => `${w}/queue`, shot: true },
  { name: 'analytics', visitor: 'owner', path: (_, w) => `${w}/analytics`, shot: true },
  { name: 'inbox', visitor: 'owner', path: (_, w) => `${w}/inbox`, shot: true },
  { name: 'inbox-open', visitor: 'owner', path: (s, w) => `${w}/inbox/${s.commentId}`, shot: true },
  { name: 'inbox-filtered', visitor: 'owner', path: (_, w) => `${w}/inbox?state=hidden&kind=mention` },
  { name: 'settings', visitor: 'owner', path: (_, w) => `${w}/settings` },
  { name: 'settings-members', visitor: 'owner', path: (_, w) => `${w}/settings/members` },
  { name: 'settings-tokens', visitor: 'owner', path: (_, w) => `${w}/settings/tokens`, shot: true },
  { name: 'settings-webhooks', visitor: 'owner', path: (_, w) => `${w}/settings/webhooks` },
  { name: 'settings-activity', visitor: 'owner', path: (_, w) => `${w}/settings/activity` },
  { name: 'settings-groups', visitor: 'owner', path: (_, w) => `${w}/settings/groups`, shot: true },
  { name: 'settings-group-new', visitor: 'owner', path: (_, w) => `${w}/settings/groups/new` },
  { name: 'settings-labels', visitor: 'owner', path: (_, w) => `${w}/settings/labels` },
  { name: 'invitation-member', visitor: 'owner', path: (s) => `/app/invitations/${s.invitationToken}` },
  { name: 'agent-consent', visitor: 'owner', path: (s) => `/app/oauth/authorize?${s.consentQuery}` },
  { name: 'not-found', visitor: 'owner', path: (_, w) => `${w}/posts/post_doesNotExist`, status: 404 },
  { name: 'server-error', visitor: 'broken', path: () => '/app', status: 500 },
]
