/**
 * The product as a user starts it: `npm start` (`node bin/start.js`, which runs the esbuild bundle
 * of the sources), driven from outside over HTTP only. With DATABASE_URL / REDIS_URL in the
 * environment it runs on a fresh database of that PostgreSQL (through the Neon driver and its
 * WebSocket proxy) and counts rate limits in that Redis (through the Upstash REST stand-in), as
 * `startTestServices` provides them.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { randomInt } from 'node:crypto'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT, startServer, type StartedServer } from '../../support/processes'
import { startTestServices, type TestServices } from '../../support/services'

/** What a test needs of a started server. */
export interface Product {
  baseUrl: string
  /** The database the start printed it opened: `pglite` (embedded) or `postgres` (DATABASE_URL). */
  database: string
  /** The demo workspace's API token, printed once on the first start (null on a later one). */
  token: string | null
  /** The demo user's dashboard password, printed once on the first start. */
  password: string | null
  email: string | null
  /** `http://127.0.0.1:<port>/media`: the local store the start printed. */
  mediaStore: string
  /** Everything the process printed (stdout and stderr), appended as it comes. */
  logFile: string
}

export type ServerServices = Pick<TestServices, 'databaseUrl' | 'upstashUrl' | 'upstashToken' | 'close'>

/**
 * The servers a started product uses: with DATABASE_URL, a fresh database on that PostgreSQL (dropped
 * on `close`), which the product reaches through node-postgres; with REDIS_URL, the Upstash REST stand-in in
 * front of that Redis. Without them, nothing: the product embeds its own.
 */
export async function serverServices(): Promise<ServerServices> {
  const { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl } = process.env
  if (!databaseUrl && !redisUrl)
    return { databaseUrl: null, upstashUrl: null, upstashToken: null, close: async () => {} }
  return startTestServices({ databaseUrl, redisUrl })
}

/**
 * The environment of `npm start`: a DATA_DIR, warnings and errors logged, and the configuration a
 * user sets for a trial behind a proxy on this machine: TRUST_PROXY (each test sends its own
 * client address, so rate limits count per test rather than for the whole run on 127.0.0.1) and
 * ALLOW_PRIVATE_URLS (the webhook receiver listens on loopback).
 */
export function productEnv(dataDir: string, services: ServerServices): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_NO_WARNINGS: '1',
    TRUST_PROXY: 'true',
    ALLOW_PRIVATE_URLS: 'true',
  }
  if (services.databaseUrl) env.DATABASE_URL = services.databaseUrl
  if (services.upstashUrl) {
    env.UPSTASH_REDIS_REST_URL = services.upstashUrl
    env.UPSTASH_REDIS_REST_TOKEN = services.upstashToken!
  }
  return env
}

/**
 * The bundle `npm start` is about to run (bin/start-bundle.js, the launcher's own function and cache),
 * built now when the sources changed. Where it cannot be built npm start runs the sources through tsx
 * instead, which is not what users run: the suite refuses to go on.
 */
export async function requireBundle(): Promise<string> {
  const launcher = pathToFileURL(join(ROOT, 'bin', 'start-bundle.js')).href
  const { bundledEntry } = (await import(launcher)) as { bundledEntry(): Promise<string | null> }
  const entry = await bundledEntry()
  if (!entry) throw new Error('esbuild cannot build the bundle here: npm start would run the sources through tsx')
  return entry
}

/** Starts `npm start`, reads what it printed, and keeps appending its output to `logFile`. */
export async function startProduct(
  env: Record<string, string>,
  logFile: string,
): Promise<Product & { server: StartedServer }> {
  const server = await startServer(env)
  const printed = server.output()
  writeFileSync(logFile, printed)
  const append = (chunk: Buffer) => appendFileSync(logFile, chunk)
  server.child.stdout!.on('data', append)
  server.child.stderr!.on('data', append)
  const store = /Media store: (http:\/\/\S+\/media)/.exec(printed)
  if (!store) throw new Error(`npm start printed no media store:\n${printed}`)
  return {
    server,
    baseUrl: server.baseUrl,
    database: /\(database: (\w+),/.exec(printed)?.[1] ?? '',
    token: /sps_[0-9A-Za-z]{43}/.exec(printed)?.[0] ?? null,
    email: /sign-in as (\S+) with the password/.exec(printed)?.[1] ?? null,
    password: /with the password \(shown only this once\):\n\n {2}(\S+)\n/.exec(printed)?.[1] ?? null,
    mediaStore: store[1]!,
    logFile,
  }
}

/** Log lines the server wrote at level error (an unexpected failure behind some answer), and any stack trace. */
export function loggedErrors(logFile: string): string[] {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => /"level":"(error|fatal)"/.test(line) || /^\s+at /.test(line))
}

/** A client address of its own for a test (the server trusts X-Forwarded-For): 10.x.y.z, random per run. */
export function clientAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`
}

export interface Answer {
  status: number
  headers: Headers
  body: any
}

/** The API as a script calls it: JSON in and out, the bearer token, and this client's address. */
export function apiClient(baseUrl: string, token: string, address = clientAddress()) {
  return async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'x-forwarded-for': address,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : null
    } catch {
      // Not JSON: the text itself.
    }
    return { status: res.status, headers: res.headers, body: parsed }
  }
}

export type Api = ReturnType<typeof apiClient>
