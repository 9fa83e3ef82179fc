/**
 * One crash round: a burst of posts through the API (publish now, or scheduled a few seconds
 * ahead), the server SIGKILLed at seeded random moments and started again on the same DATA_DIR,
 * then drained: the API is polled until every target has settled or the deadline passes. The
 * verdict compares what the API says with what the networks hold.
 */
import {
  type Api,
  type CrashNetworks,
  type NetworkPost,
  type Random,
  ServerGone,
  type ServerLife,
  sleep,
} from './crash-harness'

export interface CrashAccount {
  id: string
  platform: string
  /** Where its posts land at the fake (chat id, channel id, user id, subreddit). */
  place: string
  /** The destination chosen for it per post (`destinations[accountId]`), where its network has them. */
  destination?: string
}

export interface RoundPlan {
  round: number
  tag: string
  posts: Array<{ caption: string; accountIds: string[]; destinations: Record<string, string>; delaySec: number }>
  /** Delays (ms) before each kill: the first from the burst's start, the others from the previous restart. */
  killAfterMs: number[]
  /** Per kill: after its delay, wait for a network call in flight (up to 3 s) before killing. */
  midCall: boolean[]
}

export function planRound(round: number, tag: string, accounts: CrashAccount[], random: Random, size: number) {
  const chats = accounts.filter((a) => a.platform === 'CHAT_NET')
  const others = accounts.filter((a) => a.platform !== 'CHAT_NET')
  const destinations = Object.fromEntries(accounts.flatMap((a) => (a.destination ? [[a.id, a.destination]] : [])))
  const posts = Array.from({ length: size }, (_, i) => ({
    caption: `Crash round ${tag} post ${String(i).padStart(3, '0')}: exactly once.`,
    // Every account once per post but the chat channels, which alternate (the lookup reads 50 messages).
    accountIds: [...others.map((a) => a.id), chats[i % chats.length]!.id],
    destinations,
    delaySec: random.next() < 0.7 ? 0 : random.between(2, 8),
  }))
  const kills = random.between(2, 3)
  const killAfterMs = Array.from({ length: kills }, (_, k) =>
    k === 0 ? random.between(300, 2500) : random.between(0, 5000),
  )
  const midCall = killAfterMs.map(() => random.next() < 0.7)
  return { round, tag, posts, killAfterMs, midCall } satisfies RoundPlan
}

interface ApiTarget {
  id: string
  accountId: string
  platform: string
  status: string
  platformPostId: string | null
  error: { code: string; message: string } | null
}
interface ApiPost {
  id: string
  caption: string
  status: string
  targets: ApiTarget[]
}

/** Creates one post until the API has it exactly once, across kills (a lost answer is checked by its caption). */
async function createPost(life: ServerLife, api: Api, post: RoundPlan['posts'][number]): Promise<void> {
  for (let tries = 0; tries < 20; tries++) {
    const generation = life.generation
    try {
      const scheduledAt = new Date(Date.now() + post.delaySec * 1000).toISOString()
      const res = await api('POST', '/v1/posts', {
        type: 'IMAGE',
        mediaIds: [],
        accountIds: post.accountIds,
        caption: post.caption,
        // The forum network requires a title; the others leave it aside.
        title: post.caption.slice(0, 60),
        ...(Object.keys(post.destinations).length > 0 ? { destinations: post.destinations } : {}),
        ...(post.delaySec > 0 ? { action: 'schedule', scheduledAt } : { action: 'now' }),
      })
      if (res.status === 200) return
      // The machine took longer than the post's lead time to answer: nothing was created, ask again.
      if (res.status === 422 && (res.body as { error?: { code?: string } })?.error?.code === 'schedule_time_in_past')
        continue
      throw new Error(`creating a post answered ${res.status}: ${JSON.stringify(res.body)}`)
    } catch (err) {
      if (!(err instanceof ServerGone)) throw err
      await life.next(generation)
      // The answer was lost: the restarted server says whether the post was made.
      const found = await findPosts(life, api, post.caption)
      if (found.length > 0) return
    }
  }
  throw new Error(`could not create "${post.caption}"`)
}

async function findPosts(life: ServerLife, api: Api, q: string): Promise<ApiPost[]> {
  for (;;) {
    const generation = life.generation
    try {
      const res = await api('GET', `/v1/posts?q=${encodeURIComponent(q)}`)
      if (res.status !== 200) throw new Error(`listing posts answered ${res.status}: ${JSON.stringify(res.body)}`)
      return res.body as ApiPost[]
    } catch (err) {
      if (!(err instanceof ServerGone)) throw err
      await life.next(generation)
    }
  }
}

export interface RoundResult {
  targets: number
  kills: number
  /** Network calls on the wire at each kill. */
  inFlightAtKills: number[]
  published: number
  /** FAILED targets by `code@PLATFORM`. */
  failedByCode: Record<string, number>
  /** How many FAILED targets said each message (with whether the network has the post). */
  failures: Record<string, number>
  /** Targets with more than one post at the network. */
  duplicates: number
  /** FAILED `unconfirmed` while the network does hold the post (the user is told to check). */
  unconfirmedButPosted: number
  /** Seconds from the last restart's spawn to every target settled; null when the deadline passed. */
  settleSec: number | null
  problems: string[]
}

/** Runs the plan: burst and kills together, then the drain; returns what the networks and the API say. */
export async function runRound(
  plan: RoundPlan,
  ctx: { life: ServerLife; api: Api; networks: CrashNetworks; accounts: CrashAccount[]; deadlineSec: number },
): Promise<RoundResult> {
  const { life, api, networks } = ctx
  const killsBefore = life.kills
  const queue = [...plan.posts]
  const worker = async () => {
    for (let post = queue.shift(); post; post = queue.shift()) await createPost(life, api, post)
  }
  const inFlightAtKills: number[] = []
  const killer = async () => {
    for (const [k, delay] of plan.killAfterMs.entries()) {
      await sleep(delay)
      // Most kills wait (a little) for a call on the wire: the moment the network acts but we do not know it.
      if (plan.midCall[k]) {
        const until = performance.now() + 3000
        while (networks.inFlight() === 0 && performance.now() < until) await sleep(5)
      }
      inFlightAtKills.push(networks.inFlight())
      await life.kill()
      await life.start()
    }
  }
  await Promise.all([killer(), worker(), worker(), worker()])
  const lastStart = life.startedAt
  const deadline = lastStart + ctx.deadlineSec * 1000

  let posts: ApiPost[] = []
  let settleSec: number | null = null
  for (;;) {
    posts = await findPosts(life, api, `Crash round ${plan.tag} `)
    const open = posts.flatMap((p) => p.targets).filter((t) => t.status === 'PENDING' || t.status === 'PUBLISHING')
    if (posts.length >= plan.posts.length && open.length === 0) {
      settleSec = (performance.now() - lastStart) / 1000
      break
    }
    if (performance.now() > deadline) break
    await sleep(2000)
  }
  const kills = life.kills - killsBefore
  return { ...verdict(plan, posts, networks.posts(), ctx.accounts), kills, inFlightAtKills, settleSec }
}

/** What each target must be, given what its network holds. */
function verdict(plan: RoundPlan, posts: ApiPost[], held: NetworkPost[], accounts: CrashAccount[]) {
  const problems: string[] = []
  const failedByCode: Record<string, number> = {}
  const failures: Record<string, number> = {}
  let published = 0
  let duplicates = 0
  let unconfirmedButPosted = 0
  let targets = 0
  const byCaption = new Map<string, ApiPost[]>()
  for (const p of posts) byCaption.set(p.caption, [...(byCaption.get(p.caption) ?? []), p])
  const ours = new Set(plan.posts.map((p) => p.caption))
  for (const p of posts) if (!ours.has(p.caption)) problems.push(`unexpected post ${p.id}: "${p.caption}"`)
  for (const planned of plan.posts) {
    const found = byCaption.get(planned.caption) ?? []
    if (found.length !== 1) {
      problems.push(`"${planned.caption}" exists ${found.length} times in the API`)
      continue
    }
    const post = found[0]!
    for (const t of post.targets) {
      targets++
      const account = accounts.find((a) => a.id === t.accountId)!
      const copies = held.filter(
        (h) => h.platform === account.platform && h.place === account.place && h.text === planned.caption,
      )
      const where = `${post.id}/${t.id} (${t.platform})`
      if (copies.length > 1) {
        duplicates++
        problems.push(`${where}: ${copies.length} posts at the network`)
      }
      if (t.status === 'PUBLISHED') {
        published++
        if (copies.length === 0) problems.push(`${where}: PUBLISHED but the network has no such post`)
        else if (!copies.some((c) => c.id === t.platformPostId))
          problems.push(`${where}: PUBLISHED as ${t.platformPostId}, not a post the network holds`)
      } else if (t.status === 'FAILED') {
        const code = t.error?.code ?? '(none)'
        const key = `${code}@${t.platform}`
        failedByCode[key] = (failedByCode[key] ?? 0) + 1
        const said = `${key}${copies.length > 0 ? ' (on the network)' : ''}: ${t.error?.message}`
        failures[said] = (failures[said] ?? 0) + 1
        if (!t.error?.code || !t.error.message) problems.push(`${where}: FAILED without a code and message`)
        if (code === 'unconfirmed' && copies.length > 0) unconfirmedButPosted++
        if (code !== 'unconfirmed' && copies.length > 0)
          problems.push(`${where}: FAILED ${code} ("${t.error?.message}") but the post is on the network`)
      } else {
        problems.push(`${where}: still ${t.status}`)
      }
    }
  }
  // Nothing at the networks that no planned post accounts for.
  const texts = new Set(plan.posts.map((p) => p.caption))
  for (const h of held) if (!texts.has(h.text)) problems.push(`${h.platform} holds a stray post: "${h.text}"`)
  return { targets, published, failedByCode, failures, duplicates, unconfirmedButPosted, problems }
}
