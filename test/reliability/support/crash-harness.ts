/**
 * The crash rounds' machinery: a seeded random source, loopback network fakes behind a proxy that
 * adds latency (so a kill lands while a call is on the wire, or after the network acted but before
 * its answer came back), the `npm start` process that is killed and restarted on the same DATA_DIR,
 * and a small API client that records every answer for the leak watch.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startChatFake, type ChatFake } from '../../fakes/chat'
import { startForumFake, type ForumFake } from '../../fakes/forum'
import { startMessagingFake, type MessagingFake } from '../../fakes/messaging'
import { startMicroblogFake, type MicroblogFake } from '../../fakes/microblog'
import { startWorkchatFake, type WorkchatFake } from '../../fakes/workchat'
import { startServer, type StartedServer } from '../../support/processes'
import type { LeakWatch } from './leaks'

/** A 32-bit seed from a seed and labels (FNV-1a over their text), for streams that do not depend on draw order. */
export function deriveSeed(seed: number, ...labels: Array<string | number>): number {
  let h = 0x811c9dc5
  for (const ch of [seed, ...labels].join('|')) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0
  return h
}

/** mulberry32: small, seeded, reproducible. */
export function seededRandom(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return { next, between: (lo: number, hi: number) => Math.floor(lo + next() * (hi - lo + 1)) }
}
export type Random = ReturnType<typeof seededRandom>

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export interface Latency {
  /** Before the request is passed on. */
  in: number
  /** After the network answered, before the answer is passed back. */
  out: number
}

/**
 * The latencies of each request, drawn from the seed and the request itself (its method, path and
 * body, and how many times the same request came before), not from the order requests arrive in:
 * replaying a seed gives the same request the same latencies, whatever the timings around it.
 */
export function requestLatencies(seed: number, maxMs: Latency) {
  const seen = new Map<string, number>()
  return (request: string): Latency => {
    const nth = (seen.get(request) ?? 0) + 1
    seen.set(request, nth)
    const random = seededRandom(deriveSeed(seed, request, nth))
    return { in: random.between(0, maxMs.in), out: random.between(0, maxMs.out) }
  }
}

/** A reverse proxy in front of a fake: a request waits before it is passed on, and its answer before it returns. */
export async function startLatencyProxy(target: string, latencyOf: (request: string) => Latency) {
  const upstream = new URL(target)
  let inFlight = 0
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    inFlight++
    res.once('close', () => inFlight--)
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      // Ids the service made up this run (target ids, nonces) would make the same request look new.
      const key = `${req.method} ${req.url} ${Buffer.concat(chunks).toString('utf8')}`.replace(/\w{12,}/g, '#')
      const latency = latencyOf(key)
      await sleep(latency.in)
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer: IncomingMessage) => {
          const body: Buffer[] = []
          answer.on('data', (c: Buffer) => body.push(c))
          answer.on('end', async () => {
            // The network has acted; the caller may die before this answer reaches it.
            await sleep(latency.out)
            if (res.destroyed) return
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            res.end(Buffer.concat(body))
          })
        },
      )
      forward.on('error', () => res.destroy())
      forward.end(Buffer.concat(chunks))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    inFlight: () => inFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export const CHAT_CHANNELS = ['700000000000000007', '700000000000000008'] as const
/** The workchat channel the bot is a member of, and the forum account's subreddit (the fakes' own). */
export const WORKCHAT_CHANNEL = 'C0GENERAL1'
export const SUBREDDIT = 'bakers'

/** A post as one network holds it: where (the account's place) and what (its text), with the network's id. */
export interface NetworkPost {
  platform: string
  place: string
  text: string
  id: string
}

export interface CrashNetworks {
  env: Record<string, string>
  /** Secrets the service must never show: the networks' tokens. */
  secrets: string[]
  messaging: MessagingFake
  chat: ChatFake
  microblog: MicroblogFake
  workchat: WorkchatFake
  forum: ForumFake
  /** Calls to the networks not answered yet (a kill now leaves them in flight). */
  inFlight(): number
  /** Every post the networks hold now. */
  posts(): NetworkPost[]
  /** Forgets every post (between rounds, once the last round has settled). */
  reset(): void
  close(): Promise<void>
}

/**
 * MESSAGING_NET (one chat, no lookup), CHAT_NET (bot, two channels, lookup), MICROBLOG_NET (timeline
 * lookup), WORKCHAT_NET (bot, a channel chosen per target, lookup through the channel's history) and
 * FORUM_NET (OAuth, a subreddit chosen per target, lookup through the user's newest submissions).
 */
export async function startCrashNetworks(seed: number): Promise<CrashNetworks> {
  const messaging = await startMessagingFake()
  const chat = await startChatFake()
  chat.state.channels.set(CHAT_CHANNELS[1], {
    id: CHAT_CHANNELS[1],
    guild_id: '900000000000000001',
    name: 'news',
    type: 0,
  })
  const microblog = await startMicroblogFake()
  const workchat = await startWorkchatFake()
  const forum = await startForumFake()
  // The forum's rate-limit window is not under test here: room for every round's calls.
  forum.state.budget = 1_000_000
  const maxMs = { in: 60, out: 150 }
  const proxies = await Promise.all(
    [messaging.url, chat.url, microblog.url, workchat.url, forum.url].map((u, i) =>
      startLatencyProxy(u, requestLatencies(deriveSeed(seed, 'latency', i), maxMs)),
    ),
  )
  return {
    env: {
      MESSAGING_NET_API_URL: proxies[0]!.url,
      CHAT_NET_API_URL: proxies[1]!.url,
      MICROBLOG_NET_API_URL: proxies[2]!.url,
      WORKCHAT_NET_API_URL: proxies[3]!.url,
      FORUM_NET_API_URL: proxies[4]!.url,
      FORUM_NET_OAUTH_URL: proxies[4]!.url,
    },
    secrets: [
      messaging.token,
      chat.state.botToken,
      'access-1',
      'refresh-1',
      workchat.state.accessToken,
      forum.state.accessToken,
      forum.state.refreshToken,
    ],
    messaging,
    chat,
    microblog,
    workchat,
    forum,
    inFlight: () => proxies.reduce((n, p) => n + p.inFlight(), 0),
    posts: () => [
      ...messaging.messages.map((m) => ({
        platform: 'MESSAGING_NET',
        place: m.chatId,
        text: m.text ?? m.caption ?? '',
        id: String(m.message_id),
      })),
      ...chat.state.messages.map((m) => ({ platform: 'CHAT_NET', place: m.channel_id, text: m.content, id: m.id })),
      ...microblog.tweets.map((t) => ({ platform: 'MICROBLOG_NET', place: t.authorId, text: t.text, id: t.id })),
      ...workchat.state.messages.map((m) => ({
        platform: 'WORKCHAT_NET',
        place: m.channel,
        text: m.text,
        id: `${m.channel}/${m.ts}`,
      })),
      ...forum.state.submissions
        .filter((s) => !s.removed)
        .map((s) => ({ platform: 'FORUM_NET', place: s.subreddit, text: s.selftext, id: s.name })),
    ],
    reset() {
      messaging.messages.splice(0)
      chat.state.messages = []
      chat.state.nonces.clear()
      microblog.tweets.splice(0)
      workchat.state.messages = []
      forum.state.submissions = []
    },
    close: async () => {
      await Promise.all(proxies.map((p) => p.close()))
    },
  }
}

/**
 * `npm start`, killed and started again on the same environment (and DATA_DIR), as an operator's
 * supervisor would. `generation` grows at every start; a caller whose request failed waits for the next one.
 */
export class ServerLife {
  generation = 0
  kills = 0
  /** When the latest start was spawned (ms, performance.now()). */
  startedAt = 0
  /** Exits nobody asked for. */
  readonly unexpected: string[] = []
  private server: StartedServer | null = null
  private waiting: Array<() => void> = []

  constructor(
    private readonly env: Record<string, string>,
    private readonly watch: LeakWatch,
  ) {}

  get baseUrl(): string | null {
    return this.server?.baseUrl ?? null
  }

  async start(): Promise<void> {
    this.startedAt = performance.now()
    const server = await startServer(this.env)
    const generation = ++this.generation
    server.child.once('exit', (code, signal) => {
      if (signal !== 'SIGKILL' && this.server === server && code !== 0)
        this.unexpected.push(`generation ${generation} exited with ${code ?? signal}`)
    })
    this.server = server
    for (const wake of this.waiting.splice(0)) wake()
  }

  /** SIGKILL: no shutdown hook runs, whatever was in flight stays in flight. */
  async kill(): Promise<void> {
    const server = this.server
    if (!server) return
    this.server = null
    const exited = new Promise((resolve) => server.child.once('exit', resolve))
    server.child.kill('SIGKILL')
    await exited
    this.kills++
    this.watch.record(`npm start #${this.generation} (killed)`, server.output())
  }

  async stop(): Promise<void> {
    const server = this.server
    if (!server) return
    this.server = null
    await server.stop()
    this.watch.record(`npm start #${this.generation}`, server.output())
  }

  /** A live server of a generation later than `after` (the one a failed request went to). */
  async next(after: number): Promise<string> {
    while (!this.server || this.generation <= after) await new Promise<void>((wake) => this.waiting.push(wake))
    return this.server.baseUrl
  }
}

export interface ApiAnswer {
  status: number
  body: any
}

/** The API as a client sees it; every answer is scanned. Throws `ServerGone` when the process is not there. */
export class ServerGone extends Error {}

export function apiClient(life: ServerLife, token: string, watch: LeakWatch) {
  return async function api(method: string, path: string, body?: unknown): Promise<ApiAnswer> {
    const base = life.baseUrl
    if (!base) throw new ServerGone('no server')
    let res: Response
    let text: string
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(30_000),
      })
      text = await res.text()
    } catch (err) {
      throw new ServerGone(String(err))
    }
    watch.record(`${method} ${path} -> ${res.status}`, text)
    let json: unknown = null
    try {
      json = JSON.parse(text)
    } catch {
      json = text
    }
    if (res.status === 429) {
      await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000)
      return api(method, path, body)
    }
    return { status: res.status, body: json }
  }
}
export type Api = ReturnType<typeof apiClient>
