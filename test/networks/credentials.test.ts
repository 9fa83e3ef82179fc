import { describe, expect, it } from 'vitest'
import { checkCredentials } from '../../src/networks/credentials'

const problems = (...args: Parameters<typeof checkCredentials>) => {
  const checked = checkCredentials(...args)
  return checked.ok ? [] : checked.problems
}

describe('checkCredentials', () => {
  it("gives a value that is there but invalid the schema's own words, and only a missing one 'is required'", () => {
    expect(problems('MESSAGING_NET', 'BOT_TOKEN', { botToken: 'not-a-bot-token' })).toEqual([
      'botToken: must look like 123456:ABC-DEF (from @BotFather)',
      'chatId: is required',
    ])
    expect(
      problems('PROFESSIONAL_NET', 'DIRECT_LOGIN', { accessToken: '  ', expiresAt: 1_900_000_000, authorUrn: 'me' }),
    ).toEqual(['accessToken: must not be empty', 'authorUrn: must be urn:li:person:<id> or urn:li:organization:<id>'])
    expect(problems('CHAT_NET', 'BOT_TOKEN', { botToken: 'x', channelId: 'general' })).toEqual([
      "channelId: must be the channel's numeric id",
    ])
    expect(problems('CHAT_NET', 'WEBHOOK', { webhookUrl: 'not a url' })).toEqual(['webhookUrl: must be an https URL'])
    expect(problems('MESSAGING_NET', 'BOT_TOKEN', undefined)).toEqual(['credentials: is required'])
  })

  it('demands https for the address of an account’s own server; plain http only with ALLOW_PRIVATE_URLS', () => {
    const federated = { instanceUrl: 'http://mastodon.example', accessToken: 'tok' }
    const webhook = { webhookUrl: 'http://chat.example/api/webhooks/1/secret' }
    const session = { serviceUrl: 'http://pds.example', identifier: 'me.example', appPassword: 'pw' }
    expect(problems('FEDERATED_NET', 'DIRECT_LOGIN', federated)).toEqual(['instanceUrl: must be an https URL'])
    expect(problems('CHAT_NET', 'WEBHOOK', webhook)).toEqual(['webhookUrl: must be an https URL'])
    expect(problems('OPENPROTOCOL_NET', 'APP_PASSWORD', session)).toEqual(['serviceUrl: must be an https URL'])
    expect(problems('FEDERATED_NET', 'DIRECT_LOGIN', { ...federated, instanceUrl: 'https://m.example' })).toEqual([])
    expect(problems('FEDERATED_NET', 'DIRECT_LOGIN', federated, { allowHttp: true })).toEqual([])
    expect(problems('CHAT_NET', 'WEBHOOK', webhook, { allowHttp: true })).toEqual([])
    expect(
      problems('FEDERATED_NET', 'DIRECT_LOGIN', { ...federated, instanceUrl: 'ftp://m.example' }, { allowHttp: true }),
    ).toEqual(['instanceUrl: must be an http or https URL'])
  })
})
