/**
 * The fuzz's workspace: accounts of several networks, stored media, unregistered uploads, posts in
 * each status, and a second workspace whose ids are mixed in (they must behave as unknown ids).
 * Pools hold the ids a request may name; `snapshot` is the workspace's data as one comparable text.
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../../../src/db/types'
import type { PlatformId } from '../../../src/domain/vocabulary'
import { addSandboxAccount } from '../../../src/services/accounts/accounts'
import { seedComments } from '../../support/inbox-seed'
import { runDue } from '../../support/engine'
import { account, connectedAccount, media, storedMedia } from '../../support/fixtures'
import { jpeg, paint, png, upload } from '../../support/media'
import { createTestApp, type TestApp } from '../../support/test-app'

const PLATFORMS: PlatformId[] = [
  'PHOTO_NET',
  'MICROBLOG_NET',
  'PINBOARD_NET',
  'SHORTVIDEO_NET',
  'CHAT_NET',
  // Networks with a destination per target (listed through the account), options and a title.
  'FORUM_NET',
  'WORKCHAT_NET',
  'COMMUNITY_NET',
  'BLOG_NET',
  'LOCAL_NET',
  'RELAY_NET',
  'SITE_NET',
  'DEVBLOG_NET',
]
const POOL_CAP = 300
const MIN_POSTS = 6

export interface FuzzWorkspace {
  t: TestApp
  foreign: TestApp
  pools: Record<string, string[]>
  /** The pool value at `index` (modulo); an odd but harmless id for an empty pool. */
  pick(pool: string, index: number): string
  /** Adds the ids an answer names to the pools (by their prefix). */
  learn(body: unknown): void
  /** Moves a deleted id out of its pool (into `gone`), so requests keep finding live ones. */
  forget(id: string): void
  /** Creates a post when deletions left fewer than a few (outside the fuzz's count); true when it wrote. */
  replenish(): Promise<boolean>
}

const PREFIX_POOL: Record<string, string> = {
  acc: 'accounts',
  med: 'media',
  post: 'posts',
  fld: 'folders',
  cmt: 'inbox',
}

export async function createFuzzWorkspace(logLines: string[]): Promise<FuzzWorkspace> {
  const t = await createTestApp({ plan: 'agency', logLines })
  const foreign = await createTestApp({ plan: 'agency', logLines })
  const pools: Record<string, string[]> = {
    accounts: [],
    media: [],
    posts: [],
    folders: [],
    inbox: [],
    'tickets.key': [],
    'tickets.url': [],
    foreign: [],
    gone: [],
  }
  for (const p of PLATFORMS) pools.accounts!.push((await account(t, p)).id)
  const failing = await addSandboxAccount(t.deps.db, t.deps.cipher, {
    workspaceId: t.workspaceId,
    platform: 'FEDERATED_NET',
    username: 'always_fails',
    failMode: 'always',
  })
  pools.accounts!.push(failing.id, (await connectedAccount(t, 'PHOTO_NET', 'DIRECT_LOGIN')).id)

  const photo = await jpeg(paint(96, 120, (x, y) => [x * 2, y * 2, 90]))
  pools.media!.push(
    await storedMedia(t, { bytes: photo, mimeType: 'image/jpeg', altText: 'fuzz' }),
    await storedMedia(t, { bytes: await png(paint(40, 40, (x) => [x * 6, 10, 10, 200])), mimeType: 'image/png' }),
    await media(t, { type: 'VIDEO', width: 1080, height: 1920, durationSec: 20 }),
  )
  for (let i = 0; i < 4; i++) {
    const ticket = await upload(t, photo, 'image/jpeg', `fuzz-${i}.jpg`)
    pools['tickets.key']!.push(ticket.storageKey)
    pools['tickets.url']!.push(ticket.url)
  }

  let setupCalls = 0
  const create = async (app: TestApp, body: Record<string, unknown>) => {
    const res = await app.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', mediaIds: [], caption: 'fuzz', ...body },
      headers: { 'x-forwarded-for': `10.255.${(++setupCalls >> 8) & 255}.${setupCalls & 255}` },
    })
    const json = await res.json()
    if (res.status !== 200) throw new Error(`fuzz setup: ${res.status} ${JSON.stringify(json)}`)
    return json.id as string
  }
  const chat = pools.accounts![4]!
  const [forum, workchat, community] = [5, 6, 7].map((i) => pools.accounts![i]!) as [string, string, string]
  const firstDestination = async (accountId: string) => {
    const res = await t.call('GET', `/v1/accounts/${accountId}/destinations`)
    if (res.status !== 200) throw new Error(`fuzz setup: destinations ${res.status}`)
    return ((await res.json()) as { destinations: Array<{ id: string }> }).destinations[0]!.id
  }
  const destinations = {
    [forum]: await firstDestination(forum),
    [workchat]: await firstDestination(workchat),
    [community]: await firstDestination(community),
  }
  // The accounts replenishing posts take text-only posts; kept by id (a disconnect the fuzz makes
  // takes an account out of the pool, which must not shift a text-only one into its place).
  const textAccounts = [pools.accounts![1]!, chat]
  const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString()
  pools.posts!.push(
    await create(t, { accountIds: [chat], action: 'draft' }),
    await create(t, { accountIds: [chat, pools.accounts![1]!], action: 'draft', threadParts: ['two'] }),
    await create(t, { accountIds: [chat], action: 'schedule', scheduledAt: inAWeek }),
    await create(t, { accountIds: [failing.id], action: 'now' }),
    await create(t, { accountIds: [chat], action: 'now' }),
    await create(t, {
      accountIds: [forum, community],
      title: 'fuzz title',
      destinations: { [forum]: destinations[forum], [community]: destinations[community] },
      targetOptions: { [forum]: { spoiler: true }, [community]: { nsfw: false } },
      action: 'schedule',
      scheduledAt: inAWeek,
    }),
    await create(t, {
      accountIds: [workchat, pools.accounts![8]!, pools.accounts![10]!],
      title: 'fuzz title',
      destinations: { [workchat]: destinations[workchat] },
      action: 'now',
    }),
    await create(t, {
      accountIds: [pools.accounts![11]!, pools.accounts![12]!],
      title: 'fuzz article',
      targetOptions: { [pools.accounts![12]!]: { tags: ['fuzz'], published: false } },
      action: 'draft',
    }),
  )
  await runDue(t, t.publishQueue) // one FAILED post (retry has work), two PUBLISHED

  // Comments and a mention as the sync stores them (the inbox's paths draw from the `inbox` pool).
  const comment = (n: number) => ({
    workspaceId: t.workspaceId,
    accountId: chat,
    platform: 'CHAT_NET',
    externalId: `fuzz-net-${n}`,
    createdAt: new Date(Date.UTC(2026, 10, 1, n)),
  })
  const [top] = await seedComments(t.deps.db, [comment(1)])
  pools.inbox!.push(
    top!,
    ...(await seedComments(t.deps.db, [
      { ...comment(2), parentId: top! },
      { ...comment(3), kind: 'mention' },
    ])),
  )

  const foreignAccount = await account(foreign, 'CHAT_NET')
  pools.foreign!.push(
    foreignAccount.id,
    await storedMedia(foreign, { bytes: photo, mimeType: 'image/jpeg' }),
    await create(foreign, { accountIds: [foreignAccount.id], action: 'draft' }),
    ...(await seedComments(foreign.deps.db, [
      { ...comment(4), workspaceId: foreign.workspaceId, accountId: foreignAccount.id },
    ])),
  )

  let replenished = 0
  const all = () => Object.entries(pools).flatMap(([name, ids]) => (name.startsWith('tickets') ? [] : ids))
  return {
    t,
    foreign,
    pools,
    pick(pool, index) {
      const ids = pool in pools ? pools[pool]! : all()
      return ids.length > 0 ? ids[index % ids.length]! : `${pool}_empty`
    },
    forget(id) {
      for (const [name, ids] of Object.entries(pools)) {
        if (name !== 'gone' && ids.includes(id)) ids.splice(ids.indexOf(id), 1)
      }
      if (!pools.gone!.includes(id)) pools.gone!.push(id)
    },
    async replenish() {
      if (pools.posts!.length >= MIN_POSTS) return false
      const n = ++replenished
      const action = n % 3 === 0 ? { action: 'schedule', scheduledAt: inAWeek } : { action: 'draft' }
      const body = { accountIds: [textAccounts[n % 2 === 0 ? 0 : 1]!], ...action }
      try {
        pools.posts!.push(await create(t, body))
      } catch (err) {
        // The fuzz disconnected that account: a new chat account takes its place (outside the count).
        if (!String(err).includes('account_not_connected')) throw err
        const fresh = (await account(t, 'CHAT_NET')).id
        textAccounts.splice(n % 2 === 0 ? 0 : 1, 1, fresh)
        pools.posts!.push(await create(t, { ...body, accountIds: [fresh] }))
      }
      return true
    },
    learn(body) {
      const seen = new Set<unknown>()
      const walk = (v: unknown, depth: number) => {
        if (depth > 6 || v === null || typeof v !== 'object' || seen.has(v)) return
        seen.add(v)
        for (const item of Array.isArray(v) ? v : Object.values(v)) {
          if (typeof item === 'string') {
            const pool = pools[PREFIX_POOL[item.split('_')[0]!] ?? '']
            if (pool && /^[a-z]+_[0-9A-Za-z]{22}$/.test(item) && !pool.includes(item) && pool.length < POOL_CAP) {
              pool.push(item)
            }
          } else walk(item, depth + 1)
        }
      }
      walk(body, 0)
    },
  }
}

/** Every row a workspace owns, as text: equal snapshots mean nothing was written. */
export async function snapshot(db: Db, workspaceId: string): Promise<string> {
  const agg = (table: string, where: string) =>
    `(select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) || ':' || count(*) from ${table} x ${where})`
  const own = `where x.workspace_id = '${workspaceId.replace(/'/g, '')}'`
  const parts = [
    agg('workspaces', `where x.id = '${workspaceId.replace(/'/g, '')}'`),
    agg('posts', own),
    agg('targets', own),
    agg('accounts', own),
    agg('media_assets', own),
    agg('folders', own),
    agg('queue_slots', own),
    agg('idempotency_keys', own),
    agg('inbox_comments', own),
    agg('inbox_replies', own),
    agg('account_groups', own),
    agg('account_group_members', own),
    agg('labels', own),
    agg('post_labels', own),
    agg('post_notes', own),
    agg('review_links', own),
    agg('activity_log', own),
    agg('notifications', own),
    agg('notification_preferences', own),
    agg('media_variants', `join media_assets m on m.id = x.source_id ${own.replace('x.', 'm.')}`),
    agg('account_sync', `join accounts a on a.id = x.account_id ${own.replace('x.', 'a.')}`),
  ]
  const result = await db.execute(sql.raw(`select ${parts.join(` || ' ' || `)} as s`))
  return String((result as unknown as { rows: Array<{ s: string }> }).rows[0]!.s)
}
