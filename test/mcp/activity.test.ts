/**
 * The activity log through MCP: an agent's writes are recorded as the agent ("<client> for <user>"),
 * and list_activity answers the log to a manager's agent.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, describe, expect, it } from 'vitest'
import { account } from '../support/fixtures'
import { postForm, recordingOAuthProvider, servedOAuthApp } from '../support/agent-oauth'
import { signInMember } from '../support/dashboard'

const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

describe('the activity log through MCP', () => {
  it("records an agent's post as the agent, and lists it with list_activity", async () => {
    const { t, base } = await servedOAuthApp(closers)
    const member = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'admin' })
    const provider = recordingOAuthProvider('http://127.0.0.1:43121/callback', 'Log Agent')
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider })
    await new Client({ name: 'a', version: '1' }).connect(transport).catch(() => undefined)
    const consent = await (await fetch(provider.authorizationUrl!, { headers: { cookie: member.cookie } })).text()
    const requestToken = /name="request" value="([^"]+)"/.exec(consent)![1]!
    const allowed = await postForm(
      `${base}/app/oauth/authorize`,
      { _csrf: member.csrfToken, request: requestToken, workspace: [t.workspaceId], decision: 'allow' },
      member.cookie,
    )
    await transport.finishAuth(new URL(allowed.headers.get('location')!).searchParams.get('code')!)
    const agent = new Client({ name: 'log-agent', version: '1.0.0' })
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }))
    closers.push(() => agent.close())
    const ok = async (name: string, args: Record<string, unknown>) => {
      const result = (await agent.callTool({ name, arguments: args })) as CallToolResult
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy()
      return result.structuredContent as any
    }

    const a = await account(t, 'MICROBLOG_NET')
    const post = await ok('create_post', {
      type: 'IMAGE',
      accountIds: [a.id],
      mediaIds: [],
      action: 'draft',
      caption: 'hi',
    })
    const log = await ok('list_activity', { subjectId: post.id })
    expect(log.data).toHaveLength(1)
    expect(log.data[0]).toMatchObject({
      action: 'post.created',
      actor: { kind: 'agent', name: 'Log Agent for Test member' },
      subject: { type: 'post', id: post.id },
    })
    expect(log.data[0].ip).toBeTruthy()
  })
})
