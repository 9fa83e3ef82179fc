/** `--name value` / `--flag` parsing for the CLI; unknown options are errors, not silently ignored. */
export class CliError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CliError'
  }
}

export interface OptionSpec {
  [name: string]: { type: 'string' | 'boolean'; required?: boolean }
}

export function parseOptions(argv: string[], spec: OptionSpec): Record<string, string | boolean | undefined> {
  const out: Record<string, string | boolean | undefined> = {}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith('--')) throw new CliError(`unexpected argument "${arg}"`)
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined]
    const option = spec[name]
    if (!option)
      throw new CliError(
        `unknown option --${name} (expected: ${Object.keys(spec)
          .map((k) => `--${k}`)
          .join(', ')})`,
      )
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
  return out
}
