import { AppError } from '../domain/errors'
import { CliError, isHelpFlag, parseOptions, UsageError } from './args'
import { type CliContext, type CommandSpec, type DatabaseCommandSpec, PROGRAM } from './command'
import { COMMANDS } from './commands/index'
import { commandHelp, generalHelp } from './help'

/** What the arguments ask for: a help text to print, or a command to run with its parsed options. */
export type Invocation = { help: string } | { name: string; command: CommandSpec; options: Record<string, unknown> }

/** The first words of two-word commands (`token`, `posts`); one-word commands (`login`) are none. */
const GROUPS = new Set(
  Object.keys(COMMANDS)
    .filter((name) => name.includes(' '))
    .map((name) => name.split(' ')[0]!),
)
const SEE_HELP = `Run "${PROGRAM} --help" for the commands.`

function unknownCommand(words: string[]): CliError {
  const said = words.join(' ')
  const what = said ? `unknown command "${said}"` : 'no command given'
  return new UsageError(`${what}. Commands: ${Object.keys(COMMANDS).join(' | ')}. ${SEE_HELP}`)
}

/** Help for `help [group [action]]` or `help <one-word command>`. */
function helpFor(words: string[]): string {
  if (words.length === 0) return generalHelp(COMMANDS)
  const single = words.length === 1 ? COMMANDS[words[0]!] : undefined
  if (single) return commandHelp(words[0]!, single)
  const name = words.slice(0, 2).join(' ')
  const command = COMMANDS[name]
  if (command && words.length === 2) return commandHelp(name, command)
  if (words.length === 1 && GROUPS.has(words[0]!)) return generalHelp(COMMANDS, words[0])
  throw unknownCommand(words)
}

/** The command the first words name, and the arguments after them. */
function commandOf(argv: string[]): { name: string; command: CommandSpec; rest: string[] } | { help: string } {
  const [first, action] = argv as [string, string | undefined]
  const single = COMMANDS[first]
  if (single) return { name: first, command: single, rest: argv.slice(1) }
  if (!GROUPS.has(first)) throw unknownCommand(argv.slice(0, 2))
  if (action === undefined || isHelpFlag(action)) {
    if (action !== undefined) return { help: generalHelp(COMMANDS, first) }
    throw new UsageError(`"${first}" needs a command. Run "${PROGRAM} ${first} --help" for its commands.`)
  }
  const name = `${first} ${action}`
  const command = COMMANDS[name]
  if (!command) throw unknownCommand([first, action])
  return { name, command, rest: argv.slice(2) }
}

/**
 * Reads the arguments without touching the database or the network: `--help`, `-h` or `help`
 * (alone, or around a command) asks for help; anything else must be a known command with valid
 * options and arguments (else a UsageError, exit 2).
 */
export function resolveInvocation(argv: string[]): Invocation {
  const [first] = argv
  if (first === undefined) throw unknownCommand([])
  if (isHelpFlag(first) || first === 'help') return { help: helpFor(argv.slice(1)) }
  const found = commandOf(argv)
  if ('help' in found) return found
  const { name, command, rest } = found
  const beforeDashes = rest.indexOf('--') === -1 ? rest : rest.slice(0, rest.indexOf('--'))
  if (beforeDashes.some(isHelpFlag)) return { help: commandHelp(name, command) }
  try {
    return { name, command, options: parseOptions(rest, command.options, command.positionals) }
  } catch (err) {
    if (err instanceof UsageError)
      throw new UsageError(`${err.message}. Run "${PROGRAM} ${name} --help" for its options.`)
    throw err
  }
}

/** Runs a resolved admin command; AppErrors from services become CLI errors with the same message. */
export async function runCommand(
  ctx: CliContext,
  invocation: { command: DatabaseCommandSpec; options: Record<string, unknown> },
): Promise<unknown> {
  try {
    return await invocation.command.run(ctx, invocation.options as never)
  } catch (err) {
    if (err instanceof AppError) throw new CliError(err.message)
    throw err
  }
}
