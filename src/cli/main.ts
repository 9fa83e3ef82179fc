import { describeError } from '../infra/logger'
import { CliError } from './args'
import type { DatabaseCommandSpec, RemoteCommandSpec } from './command'
import { EXIT } from './exit-codes'
import { openRemoteContext, type Terminal } from './remote/context'
import { resolveInvocation, runCommand } from './run'

/**
 * `npm run -s cli -- <command>` (or `sps <command>`). Admin commands open the server's database and
 * print JSON; remote commands open none and talk HTTP to a server. `--help` needs neither. Errors go
 * to stderr with the exit codes of exit-codes.ts.
 */
async function main(): Promise<number> {
  // The AWS SDK's notice about Node versions it will drop in future releases would pollute stderr.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
  const invocation = resolveInvocation(process.argv.slice(2))
  if ('help' in invocation) {
    process.stdout.write(invocation.help)
    return EXIT.OK
  }
  if (invocation.command.kind === 'remote') return runRemote(invocation.command, invocation.options)
  return runOnDatabase(invocation.command, invocation.options)
}

async function runOnDatabase(command: DatabaseCommandSpec, options: Record<string, unknown>): Promise<number> {
  // Loaded only here: a remote command never loads the database drivers.
  const { parseNodeConfig } = await import('../config')
  const { openCliRuntime } = await import('../runtime/cli-deps')
  const runtime = await openCliRuntime(parseNodeConfig(process.env))
  try {
    const result = await runCommand(
      { deps: runtime.deps, migrationsApplied: runtime.migrationsApplied },
      { command, options },
    )
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
    return EXIT.OK
  } finally {
    await runtime.close()
  }
}

const terminal: Terminal = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  progress: (text) => process.stderr.write(`\r\x1b[2K${text}`),
  isTTY: process.stderr.isTTY === true,
}

async function runRemote(command: RemoteCommandSpec, options: Record<string, unknown>): Promise<number> {
  const stop = new AbortController()
  const onSignal = () => stop.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  const flags = options as { url?: string; token?: string; json?: boolean }
  const ctx = await openRemoteContext(flags, process.env, terminal, stop.signal)
  const output = await command.run(ctx, options as never)
  if (output) {
    const json = typeof output.json === 'string' ? output.json : JSON.stringify(output.json, null, 2)
    process.stdout.write(`${ctx.json ? json : output.text}\n`)
  }
  return EXIT.OK
}

main().then(
  (code) => process.exit(code),
  (err) => {
    const known =
      err instanceof CliError ||
      (err instanceof Error && ['ConfigError', 'DataDirInUseError', 'DatabaseOpenError'].includes(err.name))
    const message = known ? err.message : `unexpected failure (${JSON.stringify(describeError(err))})`
    process.stderr.write(`error: ${message}\n`)
    process.exit(err instanceof CliError ? err.exitCode : EXIT.REFUSED)
  },
)
