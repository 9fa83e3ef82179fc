import { describe, expect, it } from 'vitest'
import { COMMANDS } from '../../src/cli/commands/index'
import { resolveCredentials } from '../../src/cli/remote/context'
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

  it('reads positional arguments and one-word commands, and tells a usage error (exit 2) from the rest', () => {
    expect(resolveInvocation(['posts', 'get', 'post_1', '--json'])).toMatchObject({
      name: 'posts get',
      options: { id: 'post_1', json: true },
    })
    expect(resolveInvocation(['media', 'upload', '--', '--odd-name.jpg'])).toMatchObject({
      options: { file: '--odd-name.jpg' },
    })
    expect(resolveInvocation(['listen', '--forward-to', 'http://localhost:3000/hooks'])).toMatchObject({
      name: 'listen',
      options: { 'forward-to': 'http://localhost:3000/hooks' },
    })
    for (const argv of [['posts', 'get'], ['posts', 'get', 'a', 'b'], ['posts', 'list', 'extra'], ['nothing']]) {
      let caught: unknown
      try {
        resolveInvocation(argv)
      } catch (err) {
        caught = err
      }
      expect(caught, argv.join(' ')).toMatchObject({ name: 'UsageError', exitCode: 2 })
    }
    expect(() => resolveInvocation(['posts', 'get'])).toThrow(
      /<id> is required\. Run "npm run -s cli -- posts get --help"/,
    )
    expect(helpOf(['help', 'login'])).toContain('Usage: npm run -s cli -- login')
    expect(helpOf(['posts', 'get', '--help'])).toMatch(/Arguments:\n {2}<id> {3}the post/)
    expect(helpOf(['posts', 'get', '--help'])).toMatch(
      /Exit codes:\n {2}0 {3}done\n {2}1 .*\n {2}2 .*\n {2}3 .*\n {2}4 .*\n {2}5 /,
    )
    expect(helpOf(['token', 'list', '--help'])).not.toContain('Exit codes:')
  })
})

describe('remote credentials', () => {
  const config = { url: 'https://api.example.com', token: 'sps_fromconfig' }
  it('takes flags over the environment over the login, and sends the login token only to its own server', () => {
    expect(resolveCredentials({}, {}, config)).toEqual(config)
    expect(resolveCredentials({}, { SPS_TOKEN: 'sps_env' }, config)).toEqual({ ...config, token: 'sps_env' })
    expect(resolveCredentials({ token: 'sps_flag' }, { SPS_TOKEN: 'sps_env' }, config).token).toBe('sps_flag')
    expect(resolveCredentials({ url: 'https://api.example.com/' }, {}, config).token).toBe('sps_fromconfig')
    expect(resolveCredentials({}, { SPS_URL: 'https://evil.example.com' }, config)).toEqual({
      url: 'https://evil.example.com',
    })
  })
})
