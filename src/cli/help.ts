import type { OptionSpec } from './args'
import { type CommandSpec, PROGRAM } from './command'

const HELP_OPTION = '-h, --help'

function table(rows: Array<[string, string]>): string[] {
  const width = Math.max(...rows.map(([left]) => left.length))
  return rows.map(([left, right]) => `  ${left.padEnd(width)}   ${right}`)
}

const optionUsage = (name: string, option: OptionSpec[string]): string =>
  option.type === 'boolean' ? `--${name}` : `--${name} ${option.value ?? '<value>'}`

/** The help of one command: usage, options, examples. */
export function commandHelp(name: string, command: CommandSpec): string {
  const options = Object.entries(command.options)
  const usage = options.map(([n, o]) => (o.required ? optionUsage(n, o) : `[${optionUsage(n, o)}]`))
  const rows: Array<[string, string]> = options.map(([n, o]) => [
    optionUsage(n, o),
    o.required ? `${o.description} (required)` : o.description,
  ])
  rows.push([HELP_OPTION, 'show this help'])
  return [
    `Usage: ${PROGRAM} ${[name, ...usage].join(' ')}`,
    '',
    `${command.summary}. Prints JSON on stdout; errors go to stderr with a non-zero exit code.`,
    '',
    'Options:',
    ...table(rows),
    '',
    command.examples.length > 1 ? 'Examples:' : 'Example:',
    ...command.examples.map((e) => `  ${PROGRAM} ${e}`),
    '',
  ].join('\n')
}

/** The help of the whole CLI, or of the commands of one group (`token --help`). */
export function generalHelp(commands: Record<string, CommandSpec>, group?: string): string {
  const listed = Object.entries(commands).filter(([name]) => group === undefined || name.startsWith(`${group} `))
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    `       ${PROGRAM} <command> --help`,
    '',
    'The Social Publishing API command line. It works on the database of npm start: DATABASE_URL, else',
    'the embedded one under DATA_DIR (stop npm start first). Every command applies pending migrations',
    'first, prints JSON on stdout, and reports errors on stderr with a non-zero exit code.',
    '',
    'Commands:',
    ...table(listed.map(([name, command]) => [name, command.summary])),
    '',
    'Options:',
    ...table([[HELP_OPTION, 'show help; after a command, its options (also: help <command>)']]),
    '',
    'Example:',
    `  ${PROGRAM} ${listed[0]![0]} --help`,
    '',
  ].join('\n')
}
