import type { Deps } from '../deps'
import type { OptionSpec, ParsedOptions } from './args'

export type CliDeps = Pick<Deps, 'db' | 'cipher' | 'clock' | 'networks' | 'logger' | 'settings' | 'webhookQueue'>

/** What a command runs with: the services' deps, and what opening the database did. */
export interface CliContext {
  deps: CliDeps
  /** The migrations applied when the database was opened, by name. */
  migrationsApplied: string[]
}

/** How the help names the program: the README's invocation (JSON-only stdout). */
export const PROGRAM = 'npm run -s cli --'

/** One command: its help (summary, options, examples) and what it does; it answers the JSON to print. */
export interface CommandSpec<S extends OptionSpec = OptionSpec> {
  summary: string
  options: S
  /** Argument lines after the program, e.g. `token list --workspace ws_…`. */
  examples: string[]
  run(ctx: CliContext, options: ParsedOptions<S>): Promise<unknown>
}

/** Keeps each command's options typed in its `run`, and lets the table hold them all. */
export const defineCommand = <const S extends OptionSpec>(spec: CommandSpec<S>): CommandSpec =>
  spec as unknown as CommandSpec
