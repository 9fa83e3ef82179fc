import { randomBytes } from 'node:crypto'
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { CliError } from '../args'

/** What `sps login` keeps: the server, its token, and the secret `sps listen` signs with. */
export interface CliConfig {
  url?: string
  token?: string
  listenSecret?: string
}

/** `$XDG_CONFIG_HOME/sps/config.json`, else `~/.config/sps/config.json`. */
export function configPath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), '.config')
  return join(base, 'sps', 'config.json')
}

/** The config, or an empty one when there is no file; a file that is no JSON object is an error. */
export async function readConfig(path: string): Promise<CliConfig> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw err
  }
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as CliConfig
  } catch {
    // reported below
  }
  throw new CliError(`${path} is not a JSON object: fix or delete it`)
}

/**
 * Writes the config atomically: a temporary file of mode 600 in the same directory (made 700),
 * then renamed over the old one, so a crash never leaves half a file or a readable token.
 */
export async function writeConfig(path: string, config: CliConfig): Promise<void> {
  const dir = dirname(path)
  await mkdir(dir, { recursive: true, mode: 0o700 })
  await chmod(dir, 0o700)
  const temporary = join(dir, `.config.${randomBytes(6).toString('hex')}.tmp`)
  try {
    await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600, flag: 'wx' })
    await rename(temporary, path)
  } catch (err) {
    await rm(temporary, { force: true })
    throw err
  }
}

/** A token as the CLI shows it: its prefix and last four characters, never the whole. */
export const maskToken = (token: string): string =>
  token.length <= 12 ? '****' : `${token.slice(0, 4)}…${token.slice(-4)}`
