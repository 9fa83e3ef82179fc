import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import IORedis from 'ioredis'
import RedisMock from 'ioredis-mock'

/**
 * A test stand-in for Upstash Redis: the REST protocol on node:http, translated to a real Redis
 * (`redisUrl`) through ioredis, or to an in-memory ioredis-mock when no URL is given.
 *
 * - `POST /` with `["CMD", ...args]` -> `{ result }`, or HTTP 400 `{ error }`
 * - `POST /pipeline` and `POST /multi-exec` with `[[...], ...]` -> `[{ result } | { error }, ...]`
 * - `Authorization: Bearer <token>` is required (401 otherwise)
 * - `Upstash-Encoding: base64` base64-encodes every string reply, nested arrays included
 * - HGETALL replies are flattened back to `[field, value, ...]` (ioredis turns them into objects)
 * - the `#!lua flags=...` first line of EVAL / SCRIPT LOAD scripts is stripped (Redis 7.0 rejects
 *   it, ioredis-mock cannot parse it); EVALSHA with the sha1 of the original script is mapped to
 *   the sha of the stripped one, and an unknown sha gets a NOSCRIPT error.
 *
 * ioredis-mock limits: no SCRIPT command, and some error replies come back as null.
 *
 * Used where @upstash/ratelimit runs: the workerd tests (test/worker/global-setup.ts) and the Node
 * tests of the Upstash limiter (test/infra/ratelimit*.test.ts). The Node suite's app talks to REDIS_URL
 * itself (rate-limiter-flexible over ioredis).
 */
export interface UpstashRestShimOptions {
  redisUrl?: string
  token: string
  /** 0 (the default) picks a free port. */
  port?: number
}

export interface UpstashRestShim {
  url: string
  close(): Promise<void>
}

type Command = [string, ...string[]]
type ReplyEntry = { result: unknown } | { error: string }

/** What we use of an ioredis client: commands as lower-case methods, and batches. */
interface CommandClient {
  [method: string]: unknown
  multi(commands: string[][]): { exec(): Promise<Array<[Error | null, unknown]> | null> }
  quit(): Promise<unknown>
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex')
const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error))

export async function startUpstashRestShim(options: UpstashRestShimOptions): Promise<UpstashRestShim> {
  const redis = (options.redisUrl ? new IORedis(options.redisUrl) : new RedisMock()) as unknown as CommandClient
  /** sha1 of the script as the client sent it -> sha1 of the script Redis stored. */
  const serverShaByClientSha = new Map<string, string>()

  /** Rewrites script commands for Redis; returns the command to run or a NOSCRIPT error. */
  function translate([name, ...args]: Command): Command | Error {
    const command = name.toUpperCase()
    const isScriptLoad = command === 'SCRIPT' && args[0]?.toUpperCase() === 'LOAD'
    const scriptIndex = command === 'EVAL' || command === 'EVAL_RO' ? 0 : isScriptLoad ? 1 : -1
    const script = args[scriptIndex]
    if (script !== undefined) {
      const stripped = script.startsWith('#!') ? script.slice(script.indexOf('\n') + 1) : script
      serverShaByClientSha.set(sha1(script), sha1(stripped))
      const rewritten = [...args]
      rewritten[scriptIndex] = stripped
      return [command, ...rewritten]
    }
    if (command === 'EVALSHA' || command === 'EVALSHA_RO') {
      const serverSha = serverShaByClientSha.get(args[0]?.toLowerCase() ?? '')
      if (!serverSha) return new Error('NOSCRIPT No matching script. Please use EVAL.')
      return [command, serverSha, ...args.slice(1)]
    }
    return [command, ...args]
  }

  async function run(command: Command): Promise<unknown> {
    const translated = translate(command)
    if (translated instanceof Error) throw translated
    const [name, ...args] = translated
    const method = redis[name.toLowerCase()]
    if (!/^[a-z_]+$/i.test(name) || typeof method !== 'function') throw new Error(`ERR unknown command '${name}'`)
    const result: unknown = await method.apply(redis, args)
    // SCRIPT LOAD answers with the sha the client computed, as Upstash does.
    const isScriptLoad = name === 'SCRIPT' && args[0]?.toUpperCase() === 'LOAD'
    return isScriptLoad ? sha1(command[2] ?? '') : result
  }

  /** A pipeline runs its commands one by one; multi-exec as one MULTI/EXEC transaction. */
  async function runBatch(commands: Command[], atomic: boolean): Promise<ReplyEntry[]> {
    const toEntry = ([error, result]: [unknown, unknown]): ReplyEntry =>
      error ? { error: errorMessage(error) } : { result }
    if (!atomic) {
      const entries: ReplyEntry[] = []
      for (const command of commands)
        entries.push(
          await run(command).then(
            (r) => toEntry([null, r]),
            (e) => toEntry([e, null]),
          ),
        )
      return entries
    }
    const translated = commands.map(translate)
    const failed = translated.find((c): c is Error => c instanceof Error)
    if (failed) throw failed
    const lowerCased = (translated as Command[]).map(([name, ...args]) => [name.toLowerCase(), ...args])
    const replies = (await redis.multi(lowerCased).exec()) ?? []
    return replies.map(toEntry)
  }

  /** Upstash's reply shape: flat HGETALL, nil for Lua false, optional base64 strings. */
  function encode(value: unknown, base64: boolean): unknown {
    if (typeof value === 'string') return base64 ? Buffer.from(value, 'utf8').toString('base64') : value
    if (Buffer.isBuffer(value)) return base64 ? value.toString('base64') : value.toString('utf8')
    if (Array.isArray(value)) return value.map((item) => encode(item, base64))
    if (value === false || value === undefined) return null
    if (value === true) return 1
    if (value !== null && typeof value === 'object') return encode(Object.entries(value).flat(), base64)
    return value
  }

  async function answer(req: IncomingMessage): Promise<[status: number, body: unknown]> {
    if (req.headers.authorization !== `Bearer ${options.token}`) return [401, { error: 'Unauthorized' }]
    if (req.method !== 'POST') return [405, { error: 'only POST is supported' }]
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const base64 = String(req.headers['upstash-encoding']).toLowerCase() === 'base64'
    const toArgs = (raw: unknown): Command => {
      if (!Array.isArray(raw) || raw.length === 0) throw new Error('ERR a command must be a non-empty JSON array')
      return raw.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))) as Command
    }
    try {
      const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      const path = (req.url ?? '/').split('?')[0]
      if (path === '/pipeline' || path === '/multi-exec') {
        if (!Array.isArray(body)) throw new Error('ERR expected an array of commands')
        const entries = await runBatch(body.map(toArgs), path === '/multi-exec')
        return [200, entries.map((e) => ('error' in e ? e : { result: encode(e.result, base64) }))]
      }
      if (path !== '/') return [404, { error: `unknown path ${path}` }]
      return [200, { result: encode(await run(toArgs(body)), base64) }]
    } catch (error) {
      return [400, { error: errorMessage(error) }]
    }
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    answer(req)
      .catch((error: unknown): [number, unknown] => [500, { error: errorMessage(error) }])
      .then(([status, body]) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await redis.quit()
    },
  }
}
