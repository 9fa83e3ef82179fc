import { parseNodeConfig } from '../config'
import { describeError } from '../infra/logger'
import { createCredentialCipher } from '../infra/credential-cipher'
import { createLogger } from '../infra/logger'
import { systemClock } from '../infra/clock'
import { openNodeDatabase, resolveCredentialsKey } from '../runtime/node-database'
import { CliError } from './args'
import { runCommand } from './commands'

/** `npm run cli -- <command>`: JSON on stdout, errors on stderr, exit code 1 on failure. */
async function main(): Promise<number> {
  const config = parseNodeConfig(process.env)
  const database = await openNodeDatabase(config)
  try {
    const cipher = await createCredentialCipher(
      resolveCredentialsKey(
        config,
        createLogger('error', (l) => console.error(l)),
      ),
    )
    const result = await runCommand({ db: database.db, cipher, clock: systemClock() }, process.argv.slice(2))
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
    return 0
  } finally {
    await database.close()
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
