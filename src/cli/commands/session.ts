import { CliError } from '../args'
import { EXIT } from '../exit-codes'
import { maskToken } from '../remote/config'
import { defineRemoteCommand } from '../remote/context'
import { fields } from '../remote/format'

interface Me {
  workspaceId: string
  name: string
  plan: { id: string }
}

const describe = (url: string, token: string, me: Me) =>
  fields([
    ['server', url],
    ['token', maskToken(token)],
    ['workspace', `${me.name} (${me.workspaceId})`],
    ['plan', me.plan.id],
  ])

export const login = defineRemoteCommand({
  summary: 'Check a token with the server (GET /v1/me) and keep the URL and token in the config file',
  options: {},
  examples: ['login --url https://api.example.com --token sps_…'],
  run: async (ctx) => {
    const { url, token } = ctx.credentials
    if (!url || !token) throw new CliError('login needs --url and --token (or SPS_URL and SPS_TOKEN)', EXIT.USAGE)
    const api = ctx.api()
    const me = await api.request('GET', '/v1/me')
    await ctx.saveConfig({ ...ctx.config, url: api.url, token })
    return {
      json: me.text,
      text: `Logged in.\n${describe(api.url, token, me.json as Me)}\nsaved in ${ctx.configFile} (mode 600)`,
    }
  },
})

export const logout = defineRemoteCommand({
  summary: 'Forget the URL and token that login kept (the token itself stays valid on the server)',
  options: {},
  needsServer: false,
  examples: ['logout'],
  run: async (ctx) => {
    const { url: _url, token: _token, ...rest } = ctx.config
    const had = ctx.config.token !== undefined
    await ctx.saveConfig(rest)
    return {
      json: { loggedOut: had, configFile: ctx.configFile },
      text: had ? `Logged out: removed the token from ${ctx.configFile}` : 'Not logged in; nothing to do',
    }
  },
})

export const whoami = defineRemoteCommand({
  summary: 'Which server, token (masked) and workspace the remote commands use',
  options: {},
  examples: ['whoami'],
  run: async (ctx) => {
    const api = ctx.api()
    const me = await api.request('GET', '/v1/me')
    return { json: me.text, text: describe(api.url, ctx.credentials.token!, me.json as Me) }
  },
})
