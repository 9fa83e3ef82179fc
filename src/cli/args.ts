/** `--name value` / `--flag` parsing for the CLI; unknown options are errors, not silently ignored. */
export class CliError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CliError'
  }
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

export function parseOptions<const S extends OptionSpec>(argv: string[], spec: S): ParsedOptions<S> {
  const out: Record<string, string | boolean | undefined> = {}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith('--')) throw new CliError(`unexpected argument "${arg}"`)
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined]
    const option = Object.hasOwn(spec, name) ? spec[name] : undefined
    if (!option) {
      const known = Object.keys(spec).map((k) => `--${k}`)
      throw new CliError(`unknown option --${name} (expected: ${known.length > 0 ? known.join(', ') : 'none'})`)
    }
    if (option.type === 'boolean') {
      out[name] = true
      continue
    }
    const value = inline ?? argv[++i]
    if (value === undefined || (inline === undefined && value.startsWith('--')))
      throw new CliError(`--${name} needs a value`)
    out[name] = value
  }
  for (const [name, option] of Object.entries(spec)) {
    if (option.required && out[name] === undefined) throw new CliError(`--${name} is required`)
  }
  // Checked above: every required option is present, and each value has its option's type.
  return out as ParsedOptions<S>
}
