import { CONNECTIONS, PLATFORM_IDS } from '../../domain/vocabulary'
import { defineRemoteCommand } from '../remote/context'
import { table, when } from '../remote/format'

interface Account {
  id: string
  platform: string
  username: string
  status: string
  connection: string
  statusReason: string | null
  lastPublishedAt: string | null
}

export const accountsList = defineRemoteCommand({
  summary: "The workspace's accounts with their health (GET /v1/accounts)",
  options: {},
  examples: ['accounts list', 'accounts list --json'],
  run: async (ctx) => {
    const res = await ctx.api().request('GET', '/v1/accounts')
    const accounts = res.json as Account[]
    return {
      json: res.text,
      text: table(
        ['ID', 'PLATFORM', 'USERNAME', 'STATUS', 'CONNECTION', 'LAST PUBLISHED'],
        accounts.map((a) => [
          a.id,
          a.platform,
          a.username,
          a.statusReason ? `${a.status} (${a.statusReason})` : a.status,
          a.connection,
          when(a.lastPublishedAt),
        ]),
        'No accounts.',
      ),
    }
  },
})

export const accountsConnect = defineRemoteCommand({
  summary: 'A hosted connect link (single use, 30 minutes) for whoever owns the social account',
  options: {
    platform: { type: 'string', required: true, value: '<platform>', description: PLATFORM_IDS.join(', ') },
    connection: {
      type: 'string',
      value: '<connection>',
      description: `default the network's own login; ${CONNECTIONS.join(', ')}`,
    },
    'redirect-url': { type: 'string', value: '<url>', description: 'where the owner goes back to when done' },
    group: { type: 'string', value: 'grp_…', description: 'the account group the new account joins' },
  },
  examples: ['accounts connect --platform MICROBLOG_NET', 'accounts connect --platform PHOTO_NET --connection SANDBOX'],
  run: async (ctx, o) => {
    const body = {
      platform: o.platform,
      ...(o.connection ? { connection: o.connection } : {}),
      ...(o['redirect-url'] ? { redirectUrl: o['redirect-url'] } : {}),
      ...(o.group ? { groupId: o.group } : {}),
    }
    const res = await ctx.api().request('POST', '/v1/accounts/connect', { body })
    const link = res.json as { url: string; expiresAt: string }
    return {
      json: res.text,
      text: `Open this link (or send it to the account's owner); it works once, until ${when(link.expiresAt)}:\n${link.url}`,
    }
  },
})
