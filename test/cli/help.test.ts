import { describe, expect, it } from 'vitest'
import { COMMANDS } from '../../src/cli/commands/index'
import { resolveInvocation } from '../../src/cli/run'

const helpOf = (argv: string[]) => {
  const invocation = resolveInvocation(argv)
  if (!('help' in invocation)) throw new Error(`${argv.join(' ')} is no help`)
  return invocation.help
}

describe('CLI help, read from the arguments alone', () => {
  it('lists every command for --help, -h and help', () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const help = helpOf(argv)
      expect(help).toMatch(/^Usage: npm run -s cli -- <command> \[options\]/)
      for (const name of Object.keys(COMMANDS)) expect(help).toContain(`\n  ${name} `)
      expect(help).toMatch(/Example:\n {2}npm run -s cli -- \S/)
    }
  })

  it("gives each command its usage, every option and an example, after the command or through 'help'", () => {
    for (const [name, command] of Object.entries(COMMANDS)) {
      const words = name.split(' ')
      const help = helpOf([...words, '--help'])
      expect(helpOf([...words, '-h'])).toBe(help)
      expect(helpOf(['help', ...words])).toBe(help)
      expect(help).toContain(`Usage: npm run -s cli -- ${name}`)
      for (const option of Object.keys(command.options)) expect(help).toContain(`--${option}`)
      expect(help).toMatch(new RegExp(`Examples?:\\n {2}npm run -s cli -- ${name}`))
    }
    // Help wins over the options around it, valid or not.
    expect(helpOf(['workspace', 'create', '--colour', 'red', '-h'])).toContain('--timezone <zone>')
    expect(helpOf(['token', '--help'])).toContain('token revoke')
    expect(helpOf(['token', '--help'])).not.toContain('workspace create')
  })

  it('refuses an unknown command or option, pointing at --help', () => {
    expect(() => resolveInvocation(['workspace', 'delete'])).toThrow(
      /unknown command "workspace delete".*Run "npm run -s cli -- --help"/,
    )
    expect(() => resolveInvocation(['help', 'nothing'])).toThrow(/unknown command "nothing"/)
    expect(() => resolveInvocation([])).toThrow(/no command given.*--help/)
    expect(() => resolveInvocation(['token', 'list', '--workspace', 'ws_1', '--all'])).toThrow(
      /unknown option --all \(expected: --workspace\)\. Run "npm run -s cli -- token list --help"/,
    )
    expect(resolveInvocation(['token', 'list', '--workspace=ws_1'])).toMatchObject({
      name: 'token list',
      options: { workspace: 'ws_1' },
    })
  })
})
