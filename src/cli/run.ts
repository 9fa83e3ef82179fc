import { AppError } from '../domain/errors'
import { CliError, isHelpFlag, parseOptions } from './args'
import { type CliContext, type CommandSpec, PROGRAM } from './command'
import { COMMANDS } from './commands/index'
import { commandHelp, generalHelp } from './help'

/** What the arguments ask for: a help text to print, or a command to run with its parsed options. */
export type Invocation = { help: string } | { name: string; command: CommandSpec; options: Record<string, unknown> }

const GROUPS = new Set(Object.keys(COMMANDS).map((name) => name.split(' ')[0]!))
const SEE_HELP = `Run "${PROGRAM} --help" for the commands.`

function unknownCommand(words: string[]): CliError {
  const said = words.join(' ')
  const what = said ? `unknown command "${said}"` : 'no command given'
  return new CliError(`${what}. Commands: ${Object.keys(COMMANDS).join(' | ')}. ${SEE_HELP}`)
}

/** Help for `help [group [action]]`. */
function helpFor(words: string[]): string {
  if (words.length === 0) return generalHelp(COMMANDS)
  const name = words.slice(0, 2).join(' ')
  const command = COMMANDS[name]
  if (command && words.length === 2) return commandHelp(name, command)
  if (words.length === 1 && GROUPS.has(words[0]!)) return generalHelp(COMMANDS, words[0])
  throw unknownCommand(words)
}

/**
 * Reads the arguments without touching the database: `--help`, `-h` or `help` (alone, or around a
 * command) asks for help; anything else must be a known command with valid options.
 */
export function resolveInvocation(argv: string[]): Invocation {
  const [group, action] = argv
  if (group === undefined) throw unknownCommand([])
  if (isHelpFlag(group) || group === 'help') return { help: helpFor(argv.slice(1)) }
  if (!GROUPS.has(group)) throw unknownCommand(argv.slice(0, 2))
  if (action === undefined || isHelpFlag(action)) {
    if (action !== undefined) return { help: generalHelp(COMMANDS, group) }
    throw new CliError(`"${group}" needs a command. Run "${PROGRAM} ${group} --help" for its commands.`)
  }
  const name = `${group} ${action}`
  const command = COMMANDS[name]
  if (!command) throw unknownCommand([group, action])
  const rest = argv.slice(2)
  if (rest.some(isHelpFlag)) return { help: commandHelp(name, command) }
  try {
    return { name, command, options: parseOptions(rest, command.options) }
  } catch (err) {
    if (err instanceof CliError) throw new CliError(`${err.message}. Run "${PROGRAM} ${name} --help" for its options.`)
    throw err
  }
}

/** Runs a resolved command; AppErrors from services become CLI errors with the same message. */
export async function runCommand(
  ctx: CliContext,
  invocation: { command: CommandSpec; options: Record<string, unknown> },
): Promise<unknown> {
  try {
    return await invocation.command.run(ctx, invocation.options as never)
  } catch (err) {
    if (err instanceof AppError) throw new CliError(err.message)
    throw err
  }
}
