import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseNodeConfig } from '../../src/config'
import { generateCredentialsKey } from '../../src/infra/credential-cipher'
import { createLogger } from '../../src/infra/logger'
import { resolveCredentialsKey } from '../../src/runtime/node-database'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** The key a start with `env` uses, and the log lines it wrote. */
function resolve(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sps-key-'))
  dirs.push(dataDir)
  const lines: string[] = []
  const config = parseNodeConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env })
  const key = resolveCredentialsKey(
    config,
    createLogger('info', (line) => lines.push(line)),
  )
  return {
    key,
    lines,
    dataDir,
    again: () =>
      resolveCredentialsKey(
        config,
        createLogger('info', (l) => lines.push(l)),
      ),
  }
}

describe('the credentials key of a Node server', () => {
  it('embedded: generated once under DATA_DIR (mode 600), kept across starts, said once', () => {
    const { key, lines, dataDir, again } = resolve({})
    const file = join(dataDir, 'credentials.key')
    expect(readFileSync(file, 'utf8').trim()).toBe(key)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(again()).toBe(key)
    expect(lines.filter((l) => l.includes('credentials_key_generated'))).toHaveLength(1)
    expect(lines.some((l) => l.includes('credentials_key_from_data_dir'))).toBe(false)
  })

  it('on a shared database without CREDENTIALS_KEY: every start says that every server needs the same key', () => {
    const { lines, again } = resolve({ DATABASE_URL: 'postgres://sps@db.example:5432/sps' })
    again()
    const warnings = lines.filter((l) => l.includes('credentials_key_from_data_dir'))
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toContain('the same CREDENTIALS_KEY')
  })

  it('CREDENTIALS_KEY set: that key, nothing written or said', () => {
    const given = generateCredentialsKey()
    const { key, lines, dataDir } = resolve({
      DATABASE_URL: 'postgres://sps@db.example:5432/sps',
      CREDENTIALS_KEY: given,
    })
    expect(key).toBe(given)
    expect(lines).toEqual([])
    expect(() => statSync(join(dataDir, 'credentials.key'))).toThrow()
  })
})
