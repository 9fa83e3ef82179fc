import { parseNodeConfig } from '../config'
import { describeError } from '../infra/logger'
import { openCliRuntime } from '../runtime/node-deps'
import { CliError } from './args'
import { runCommand } from './commands'

/** `npm run cli -- <command>`: JSON on stdout, errors on stderr, exit code 1 on failure. */
async function main(): Promise<number> {
  const runtime = await openCliRuntime(parseNodeConfig(process.env))
  try {
    const result = await runCommand(runtime.deps, process.argv.slice(2))
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
    return 0
  } finally {
    await runtime.close()
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    const message =
      err instanceof CliError ||
      (err instanceof Error && (err.name === 'ConfigError' || err.name === 'DataDirInUseError'))
        ? err.message
        : `unexpected failure (${JSON.stringify(describeError(err))})`
    process.stderr.write(`error: ${message}\n`)
    process.exit(1)
  },
)
