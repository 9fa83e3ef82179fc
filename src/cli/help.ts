import type { OptionSpec } from './args'
import { type CommandSpec, PROGRAM } from './command'
import { EXIT_CODE_HELP } from './exit-codes'

const HELP_OPTION = '-h, --help'

function table(rows: Array<[string, string]>): string[] {
  const width = Math.max(...rows.map(([left]) => left.length))
  return rows.map(([left, right]) => `  ${left.padEnd(width)}   ${right}`)
}

const optionUsage = (name: string, option: OptionSpec[string]): string =>
  option.type === 'boolean' ? `--${name}` : `--${name} ${option.value ?? '<value>'}`

const DATABASE_OUTPUT = 'Prints JSON on stdout; errors go to stderr with a non-zero exit code.'
const REMOTE_OUTPUT =
  "Talks HTTP to the server (opens no database). Prints text, or with --json the API's JSON exactly; errors go to stderr."

const exitCodes = (): string[] => ['Exit codes:', ...table(EXIT_CODE_HELP)]

/** The help of one command: usage, arguments, options, examples (and exit codes for a remote one). */
export function commandHelp(name: string, command: CommandSpec): string {
  const options = Object.entries(command.options)
  const positionals = command.positionals ?? []
  const usage = [
    ...positionals.map((p) => `<${p.name}>`),
    ...options.map(([n, o]) => (o.required ? optionUsage(n, o) : `[${optionUsage(n, o)}]`)),
  ]
  const rows: Array<[string, string]> = options.map(([n, o]) => [
    optionUsage(n, o),
    o.required ? `${o.description} (required)` : o.description,
  ])
  rows.push([HELP_OPTION, 'show this help'])
  const remote = command.kind === 'remote'
  return [
    `Usage: ${PROGRAM} ${[name, ...usage].join(' ')}`,
    '',
    `${command.summary}. ${remote ? REMOTE_OUTPUT : DATABASE_OUTPUT}`,
    '',
    ...(positionals.length > 0
      ? ['Arguments:', ...table(positionals.map((p) => [`<${p.name}>`, p.description])), '']
      : []),
    'Options:',
    ...table(rows),
    '',
    command.examples.length > 1 ? 'Examples:' : 'Example:',
    ...command.examples.map((e) => `  ${PROGRAM} ${e}`),
    '',
    ...(remote ? [...exitCodes(), ''] : []),
  ].join('\n')
}

const commandRows = (listed: Array<[string, CommandSpec]>): string[] =>
  table(
    listed.map(([name, command]) => [
      [name, ...(command.positionals ?? []).map((p) => `<${p.name}>`)].join(' '),
      command.summary,
    ]),
  )

/** The help of the whole CLI, or of the commands of one group (`token --help`). */
export function generalHelp(commands: Record<string, CommandSpec>, group?: string): string {
  const listed = Object.entries(commands).filter(([name]) => group === undefined || name.startsWith(`${group} `))
  const database = listed.filter(([, c]) => c.kind === 'database')
  const remote = listed.filter(([, c]) => c.kind === 'remote')
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    `       ${PROGRAM} <command> --help`,
    '',
    'The Social Publishing API command line (also `sps <command>`).',
    '',
    ...(database.length > 0
      ? [
          'Server administration: on the database of npm start (DATABASE_URL, else the embedded one under',
          'DATA_DIR: stop npm start first). Each applies pending migrations first and prints JSON on stdout.',
          '',
          ...commandRows(database),
          '',
        ]
      : []),
    ...(remote.length > 0
      ? [
          'Client of a running server: HTTP only, no database. The server and token come from --url and',
          '--token, else SPS_URL and SPS_TOKEN, else what `login` kept in $XDG_CONFIG_HOME/sps/config.json',
          "(~/.config/sps/config.json). Text for people by default; --json prints the API's JSON exactly.",
          '',
          ...commandRows(remote),
          '',
        ]
      : []),
    'Options:',
    ...table([[HELP_OPTION, 'show help; after a command, its options (also: help <command>)']]),
    '',
    ...exitCodes(),
    '',
    'Example:',
    `  ${PROGRAM} ${listed[0]![0]} --help`,
    '',
  ].join('\n')
}
