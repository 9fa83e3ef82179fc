import { parseNodeConfig } from '../config'
import { describeError } from '../infra/logger'
import { openCliRuntime } from '../runtime/node-deps'
import { CliError } from './args'
import { resolveInvocation, runCommand } from './run'

/**
 * `npm run -s cli -- <command>` (or `sps <command>`): JSON on stdout, errors on stderr, exit code 1
 * on failure. `--help` prints text on stdout and opens no database.
 */
async function main(): Promise<number> {
  // The AWS SDK's notice about Node versions it will drop in future releases would pollute stderr.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
  const invocation = resolveInvocation(process.argv.slice(2))
  if ('help' in invocation) {
    process.stdout.write(invocation.help)
    return 0
  }
  const runtime = await openCliRuntime(parseNodeConfig(process.env))
  try {
    const result = await runCommand({ deps: runtime.deps, migrationsApplied: runtime.migrationsApplied }, invocation)
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
      (err instanceof Error && ['ConfigError', 'DataDirInUseError', 'DatabaseOpenError'].includes(err.name))
        ? err.message
        : `unexpected failure (${JSON.stringify(describeError(err))})`
    process.stderr.write(`error: ${message}\n`)
    process.exit(1)
  },
)
