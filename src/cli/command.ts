import type { Deps } from '../deps'
import type { OptionSpec, ParsedOptions, PositionalSpec } from './args'
import type { RemoteContext, RemoteOutput } from './remote/context'

export type CliDeps = Pick<Deps, 'db' | 'cipher' | 'clock' | 'networks' | 'logger' | 'settings' | 'webhookQueue'>

/** What a command runs with: the services' deps, and what opening the database did. */
export interface CliContext {
  deps: CliDeps
  /** The migrations applied when the database was opened, by name. */
  migrationsApplied: string[]
}

/** How the help names the program: the README's invocation (JSON-only stdout). */
export const PROGRAM = 'npm run -s cli --'

/** What every command's help has: a summary, options, positional arguments and examples. */
interface CommandHelp<S extends OptionSpec> {
  summary: string
  options: S
  /** Positional arguments, in order (all required), e.g. `<id>`. */
  positionals?: readonly PositionalSpec[]
  /** Argument lines after the program, e.g. `token list --workspace ws_…`. */
  examples: string[]
}

/** A server-side admin command: it opens the database and answers the JSON to print. */
export interface DatabaseCommandSpec<S extends OptionSpec = OptionSpec> extends CommandHelp<S> {
  kind: 'database'
  run(ctx: CliContext, options: ParsedOptions<S>): Promise<unknown>
}

/**
 * A client of a remote server: it opens no database and talks HTTP with a URL and a token (flags,
 * env, then the login's config). It answers what to print, or prints as it goes (a stream) and
 * answers nothing.
 */
export interface RemoteCommandSpec<S extends OptionSpec = OptionSpec> extends CommandHelp<S> {
  kind: 'remote'
  /** false: no server needed (logout). */
  needsServer?: boolean
  run(ctx: RemoteContext, options: ParsedOptions<S> & Record<string, string>): Promise<RemoteOutput | undefined>
}

export type CommandSpec = DatabaseCommandSpec | RemoteCommandSpec

/** Keeps each command's options typed in its `run`, and lets the table hold them all. */
export const defineCommand = <const S extends OptionSpec>(spec: Omit<DatabaseCommandSpec<S>, 'kind'>): CommandSpec =>
  ({ ...spec, kind: 'database' }) as unknown as CommandSpec
