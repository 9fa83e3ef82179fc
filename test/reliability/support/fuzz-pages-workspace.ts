/**
 * The pages fuzz's world: a workspace with accounts, media, posts (one published on the sandbox
 * network, so its permalink page exists), a webhook endpoint, an invitation, an API token, a second
 * member, hosted-connect links and a registered agent client; an owner signed in through the real
 * form (session cookie, CSRF token), signed in again whenever a fuzzed request ended the session or
 * the membership. Every network points at a closed loopback port, so nothing leaves the machine.
 */
import { DEFAULT_NETWORK_ORIGINS } from '../../../src/networks/origins'
import { randomBase62 } from '../../../src/lib/ids'
import { addSandboxAccount } from '../../../src/services/accounts/accounts'
import { createInvitation } from '../../../src/services/people/invitations'
import { addMember } from '../../../src/services/people/memberships'
import { createUser } from '../../../src/services/people/users'
import { cookiesOf, csrfOf, submitSignIn } from '../../support/dashboard'
import { runDue } from '../../support/engine'
import { account, storedMedia } from '../../support/fixtures'
import { jpeg, paint } from '../../support/media'
import { createTestApp, type TestApp } from '../../support/test-app'

/** A port nothing listens on: a network call fails at once instead of leaving the machine. */
const CLOSED = 'http://127.0.0.1:9'

/**
 * The DNS of the fuzz: the webhook receiver's name resolves to a public address (an endpoint may be
 * registered; deliveries are only recorded), every other name is unknown, so no fuzzed address
 * (a federated instance, a webhook URL) is ever connected to.
 */
async function resolveOnlyHooks(hostname: string): Promise<string[]> {
  if (hostname === 'hooks.example') return ['93.184.215.14']
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
}

export interface PagesWorld {
  t: TestApp
  /** Ids a fuzzed path or field may name, by pool. */
  pools: Record<string, string[]>
  session(): { cookie: string; csrfToken: string }
  /** The CSRF cookie and field of the public forms (sign-in, sign-up, invitation). */
  formToken: string
  /** Signs the owner in again when the session no longer opens the workspace; true when it had to. */
  heal(): Promise<boolean>
  /** The posts pool as the workspace holds it now, with new drafts when fuzzed deletions left fewer than three. */
  replenish(): Promise<void>
}

export async function createPagesWorld(logLines: string[]): Promise<PagesWorld> {
  const origins = Object.fromEntries(Object.keys(DEFAULT_NETWORK_ORIGINS).map((k) => [k, CLOSED]))
  const t = await createTestApp({
    plan: 'agency',
    logLines,
    networks: { origins },
    allowPrivateUrls: false,
    resolveHost: resolveOnlyHooks,
    connectRedirectOrigins: ['https://app.example'],
  })
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await t.call(method, path, { body, headers: { 'x-forwarded-for': `10.254.0.${randomIp8()}` } })
    const json = await res.json()
    if (res.status >= 300) throw new Error(`pages fuzz setup: ${method} ${path} ${res.status} ${JSON.stringify(json)}`)
    return json
  }
  const chat = await account(t, 'CHAT_NET')
  const pin = await account(t, 'PINBOARD_NET')
  const forum = await account(t, 'FORUM_NET')
  const site = await account(t, 'SITE_NET')
  const sandbox = await addSandboxAccount(t.deps.db, t.deps.cipher, {
    workspaceId: t.workspaceId,
    platform: 'MICROBLOG_NET',
    username: 'fuzz_sandbox',
  })
  const photo = await jpeg(paint(48, 60, (x, y) => [x * 4, y * 3, 90]))
  const mediaId = await storedMedia(t, { bytes: photo, mimeType: 'image/jpeg', altText: 'fuzz' })
  const post = (accountIds: string[], extra: Record<string, unknown>) =>
    call('POST', '/v1/posts', { type: 'IMAGE', mediaIds: [], caption: 'fuzz', accountIds, ...extra })
  const draft = await post([chat.id], { action: 'draft' })
  const scheduled = await post([chat.id], {
    action: 'schedule',
    scheduledAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  })
  const subreddit = (await call('GET', `/v1/accounts/${forum.id}/destinations`)).destinations[0].id
  const titled = await post([forum.id, site.id], {
    action: 'draft',
    title: 'fuzz title',
    destinations: { [forum.id]: subreddit },
    targetOptions: { [forum.id]: { nsfw: true }, [site.id]: { status: 'draft' } },
  })
  const published = await post([sandbox.id], { action: 'now' })
  await runDue(t, t.publishQueue)
  const permalinks = ((await call('GET', `/v1/posts/${published.id}`)).targets ?? [])
    .map((target: { permalink: string | null }) => target.permalink)
    .filter((p: string | null): p is string => !!p && p.includes('/sandbox/posts/'))
    .map((p: string) => p.split('/sandbox/posts/')[1]!)

  const hook = await call('POST', '/v1/webhooks', { url: 'https://hooks.example/sps', events: ['post.published'] })
  const links = await Promise.all(
    [
      { platform: 'MESSAGING_NET' },
      { platform: 'MICROBLOG_NET', connection: 'SANDBOX' },
      { platform: 'FEDERATED_NET' },
    ].map((body) => call('POST', '/v1/accounts/connect', { ...body, redirectUrl: 'https://app.example/done' })),
  )
  const client = await call('POST', '/oauth2/register', {
    client_name: 'Fuzz agent',
    redirect_uris: ['https://agent.example/cb', 'http://127.0.0.1:7777/cb'],
    token_endpoint_auth_method: 'none',
  })
  const other = await createUser(t.deps, {
    email: `other-${randomBase62(8)}@example.com`,
    name: 'Other member',
    password: `pw-${randomBase62(16)}`,
  })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, other.id, 'member'))

  const owner = { email: `owner-${randomBase62(8)}@example.com`, password: `pw-${randomBase62(16)}` }
  const ownerUser = await createUser(t.deps, { ...owner, name: 'Fuzz owner' })
  await t.deps.db.transaction((tx) => addMember(tx, t.workspaceId, ownerUser.id, 'owner'))
  let checks = 0
  const settingsPage = (cookie: string) =>
    t.app.request(`/app/w/${t.workspaceId}/settings`, {
      headers: { cookie, 'x-forwarded-for': `10.253.${(++checks >> 8) & 255}.${checks & 255}` },
    })
  /** The owner signed in through the real form: the session cookie and the CSRF token of its pages. */
  const signIn = async () => {
    const res = await submitSignIn(
      t.app,
      owner.email,
      owner.password,
      `10.252.${(++checks >> 8) & 255}.${checks & 255}`,
    )
    if (res.status !== 303) throw new Error(`pages fuzz: the owner could not sign in (${res.status})`)
    const cookie = `sps_session=${cookiesOf(res).sps_session}`
    return { cookie, csrfToken: csrfOf(await (await settingsPage(cookie)).text()), userId: ownerUser.id }
  }
  let session = await signIn()
  const invitation = await createInvitation(t.deps.db, {
    workspaceId: t.workspaceId,
    role: 'member',
    invitedBy: session.userId,
    now: new Date(),
  })
  const formPage = await t.app.request('/app/sign-in', { headers: { 'x-forwarded-for': '10.254.1.1' } })
  const formToken = cookiesOf(formPage).sps_form!

  // The agency workflow: a group (with the chat account), a label and a client review link of the group.
  const group = await call('POST', '/v1/groups', { name: 'Fuzz brand', accountIds: [chat.id] })
  const label = await call('POST', '/v1/labels', { name: 'Fuzz campaign' })
  const review = await call('POST', '/v1/review-links', { groupId: group.id, name: 'Fuzz client' })
  const pools: Record<string, string[]> = {
    workspace: [t.workspaceId],
    posts: [draft.id, scheduled.id, published.id, titled.id],
    accounts: [chat.id, pin.id, sandbox.id, forum.id, site.id],
    media: [mediaId],
    hooks: [hook.id],
    events: ['evt_fuzz'],
    tokens: [],
    invitations: [invitation.id],
    invitationTokens: [invitation.token],
    groups: [group.id],
    labels: [label.id],
    reviewLinks: [review.id],
    reviewTokens: [new URL(review.url).pathname.split('/')[2]!],
    members: [other.id],
    links: links.map((l: { url: string }) => new URL(l.url).pathname.split('/')[2]!),
    clients: [client.client_id],
    sandboxPosts: permalinks,
    platforms: [
      'MICROBLOG_NET',
      'PINBOARD_NET',
      'FEDERATED_NET',
      'MESSAGING_NET',
      'CHAT_NET',
      'FORUM_NET',
      'WORKCHAT_NET',
    ],
    assets: ['app.css', 'composer.js', 'upload.js', 'nope.js', 'constructor'],
  }
  return {
    t,
    pools,
    formToken,
    session: () => ({ cookie: session.cookie, csrfToken: session.csrfToken }),
    async replenish() {
      const listed = await call('GET', '/v1/posts?limit=100')
      const live = ((listed.data ?? listed) as Array<{ id: string }>).map((p) => p.id)
      for (let n = live.length; n < 3; n++) live.push((await post([chat.id], { action: 'draft' })).id)
      pools.posts = live
    },
    async heal() {
      if ((await settingsPage(session.cookie)).status === 200) return false
      session = await signIn()
      return true
    },
  }
}

let ipCounter = 0
const randomIp8 = () => (++ipCounter % 250) + 1
