import type { OptionSpec, ParsedOptions, PositionalSpec } from '../args'
import { CliError } from '../args'
import type { RemoteCommandSpec } from '../command'
import { EXIT } from '../exit-codes'
import { type ApiClient, createApiClient } from './client'
import { type CliConfig, configPath, readConfig, writeConfig } from './config'

/** What a remote command prints: the API's JSON (`--json`, exactly as sent) or text for people. */
export interface RemoteOutput {
  /** The API's body as it came (printed as is with `--json`), or a value to print as JSON. */
  json: string | unknown
  text: string
}

/** Where a remote command writes while it runs (streams), and whether stderr is a terminal. */
export interface Terminal {
  out(line: string): void
  err(line: string): void
  /** Rewrites the current stderr line (a progress bar); only called when `isTTY`. */
  progress(text: string): void
  isTTY: boolean
}

export interface RemoteContext {
  /** `--json`: print the API's JSON instead of text. */
  json: boolean
  terminal: Terminal
  configFile: string
  config: CliConfig
  saveConfig(config: CliConfig): Promise<void>
  /** The API at the resolved URL with the resolved token; not logged in is a CliError (exit 3). */
  api(): ApiClient
  /** The URL and token as given (flags > env > config), either possibly missing. */
  credentials: { url?: string; token?: string }
  /** Ends with Ctrl-C (SIGINT) or SIGTERM: streams stop on it. */
  signal: AbortSignal
}

/** The options every remote command takes. */
export const REMOTE_OPTIONS = {
  url: { type: 'string', value: '<url>', description: 'the server (default: SPS_URL, else the login)' },
  token: { type: 'string', value: 'sps_…', description: 'the API token (default: SPS_TOKEN, else the login)' },
  json: { type: 'boolean', description: "print the API's JSON exactly as it answered" },
} as const

type RemoteOptions = typeof REMOTE_OPTIONS

/** A remote command: its own options plus --url, --token and --json; positional values land by name. */
export const defineRemoteCommand = <const S extends OptionSpec, const P extends readonly PositionalSpec[] = []>(spec: {
  summary: string
  options: S
  positionals?: P
  examples: string[]
  needsServer?: boolean
  run(
    ctx: RemoteContext,
    options: ParsedOptions<S & RemoteOptions> & { [K in P[number]['name']]: string },
  ): Promise<RemoteOutput | undefined>
}): RemoteCommandSpec =>
  ({ ...spec, options: { ...spec.options, ...REMOTE_OPTIONS }, kind: 'remote' }) as unknown as RemoteCommandSpec

/**
 * The URL and token: each from its flag, else the environment (SPS_URL, SPS_TOKEN), else the
 * login's config. The config's token goes only to the config's server, never to another URL.
 */
export function resolveCredentials(
  flags: { url?: string | undefined; token?: string | undefined },
  env: NodeJS.ProcessEnv,
  config: CliConfig,
): { url?: string; token?: string } {
  const url = flags.url ?? (env.SPS_URL || undefined) ?? config.url
  const sameServer = url !== undefined && config.url !== undefined && sameOrigin(url, config.url)
  const token = flags.token ?? (env.SPS_TOKEN || undefined) ?? (sameServer ? config.token : undefined)
  return { ...(url ? { url } : {}), ...(token ? { token } : {}) }
}

const sameOrigin = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '')

/** The context of one remote command run from this process. */
export async function openRemoteContext(
  flags: { url?: string | undefined; token?: string | undefined; json?: boolean | undefined },
  env: NodeJS.ProcessEnv,
  terminal: Terminal,
  signal: AbortSignal,
): Promise<RemoteContext> {
  const configFile = configPath(env)
  const config = await readConfig(configFile)
  const credentials = resolveCredentials(flags, env, config)
  return {
    json: flags.json === true,
    terminal,
    configFile,
    config,
    saveConfig: (next) => writeConfig(configFile, next),
    credentials,
    signal,
    api() {
      const { url, token } = credentials
      if (!url || !token)
        throw new CliError(
          `not logged in: run "sps login --url <server> --token sps_…", or give --url and --token (or SPS_URL and SPS_TOKEN)`,
          EXIT.AUTH,
        )
      if (!/^https?:\/\//.test(url))
        throw new CliError(`--url must start with http:// or https:// (got "${url}")`, EXIT.USAGE)
      return createApiClient({ url, token })
    },
  }
}
