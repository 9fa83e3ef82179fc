import { EXIT } from './exit-codes'

/** `--name value` / `--flag` / positional parsing for the CLI; unknown options are errors, not silently ignored. */
export class CliError extends Error {
  /** The process's exit code for it (see exit-codes.ts). */
  readonly exitCode: number
  constructor(message: string, exitCode: number = EXIT.REFUSED) {
    super(message)
    this.name = 'CliError'
    this.exitCode = exitCode
  }
}

/** The arguments do not make a command: unknown command or option, a value or argument missing. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.USAGE)
    this.name = 'UsageError'
  }
}

/** A positional argument, e.g. the `<id>` of `posts get <id>`; its value lands under `name`. */
export interface PositionalSpec {
  name: string
  /** One line for the help. */
  description: string
}

export interface OptionSpec {
  [name: string]: {
    type: 'string' | 'boolean'
    required?: boolean
    /** What the help shows for the value, e.g. `ws_…`. */
    value?: string
    /** One line for the help. */
    description: string
  }
}

/** The parsed options: a string option's value (always there when required), a flag's `true`. */
export type ParsedOptions<S extends OptionSpec> = {
  [K in keyof S]: S[K]['type'] extends 'boolean'
    ? boolean | undefined
    : S[K]['required'] extends true
      ? string
      : string | undefined
}

/** `-h` or `--help`: asks for help wherever it stands among a command's options. */
export const isHelpFlag = (arg: string): boolean => arg === '--help' || arg === '-h'

/**
 * Options and, in order, the positional arguments `positionals` names (all required); anything else
 * is a usage error. A `--` ends the options: what follows is positional even if it starts with `--`.
 */
export function parseOptions<const S extends OptionSpec>(
  argv: string[],
  spec: S,
  positionals: readonly PositionalSpec[] = [],
): ParsedOptions<S> {
  const out: Record<string, string | boolean | undefined> = {}
  const given: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--') {
      given.push(...argv.slice(i + 1))
      break
    }
    if (!arg.startsWith('--')) {
      if (given.length >= positionals.length) throw new UsageError(`unexpected argument "${arg}"`)
      given.push(arg)
      continue
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined]
    const option = Object.hasOwn(spec, name) ? spec[name] : undefined
    if (!option) {
      const known = Object.keys(spec).map((k) => `--${k}`)
      throw new UsageError(`unknown option --${name} (expected: ${known.length > 0 ? known.join(', ') : 'none'})`)
    }
    if (option.type === 'boolean') {
      out[name] = true
      continue
    }
    const value = inline ?? argv[++i]
    if (value === undefined || (inline === undefined && value.startsWith('--')))
      throw new UsageError(`--${name} needs a value`)
    out[name] = value
  }
  for (const [name, option] of Object.entries(spec)) {
    if (option.required && out[name] === undefined) throw new UsageError(`--${name} is required`)
  }
  if (given.length > positionals.length) throw new UsageError(`unexpected argument "${given[positionals.length]}"`)
  positionals.forEach((p, i) => {
    if (given[i] === undefined) throw new UsageError(`<${p.name}> is required`)
    out[p.name] = given[i]
  })
  // Checked above: every required option is present, and each value has its option's type.
  return out as ParsedOptions<S>
}
