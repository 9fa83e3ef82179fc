/**
 * The role matrix of MCP: every tool the server registers (read from MCP_TOOLS, never a hand list),
 * called by a personal token of each role. A tool whose permission the role lacks answers an error
 * result `forbidden` in words, before its arguments are read; any other is never refused so. And an
 * agent acting for a reviewer (OAuth: the role of the granting user's current membership; a manager
 * grants, then is made a reviewer) cannot create a post but can approve one.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, describe, expect, it } from 'vitest'
import { can } from '../../src/domain/access'
import { MEMBER_ROLES } from '../../src/domain/people'
import { MCP_TOOLS } from '../../src/mcp/server'
import { changeMemberRole } from '../../src/services/people/memberships'
import { postForm, recordingOAuthProvider, servedOAuthApp } from '../support/agent-oauth'
import { signInMember } from '../support/dashboard'
import { account } from '../support/fixtures'
import { mcpSession, serveApp } from '../support/mcp'
import { memberWithToken } from '../support/people'
import { postInReview } from '../support/review-links'
import { createTestApp } from '../support/test-app'

const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

const errorOf = (result: CallToolResult) => {
  const text = result.content[0]?.type === 'text' ? result.content[0].text : ''
  try {
    return JSON.parse(text).error as { code: string; message: string } | undefined
  } catch {
    return undefined
  }
}

describe('the role matrix of MCP', () => {
  it('gives every tool a permission', () => {
    expect(MCP_TOOLS.length).toBeGreaterThan(30)
    for (const tool of MCP_TOOLS) expect(tool.permission, tool.name).toBeTruthy()
  })

  for (const role of MEMBER_ROLES) {
    it(`answers a ${role} by the permission of each tool`, async () => {
      const t = await createTestApp()
      const base = await serveApp(t)
      const member = await memberWithToken(t, role)
      const session = await mcpSession(t, base, member.token)
      let refused = 0
      for (const tool of MCP_TOOLS) {
        const what = `${role} ${tool.name} (${tool.permission})`
        // Empty arguments: a tool the role may use answers a validation error or a result, never `forbidden`.
        const result = await session.call(tool.name, {}).catch((e: Error) => ({ thrown: e.message }))
        if ('thrown' in result) {
          expect(can(role, tool.permission), `${what} threw: ${result.thrown}`).toBe(true)
          continue
        }
        const error = result.isError ? errorOf(result) : undefined
        if (can(role, tool.permission)) {
          expect(error?.code, `${what}: ${JSON.stringify(result.content)}`).not.toBe('forbidden')
        } else {
          refused++
          expect(result.isError, what).toBe(true)
          expect(error?.code, `${what}: ${JSON.stringify(result.content)}`).toBe('forbidden')
          expect(error?.message, what).toMatch(new RegExp(`^Your role \\(${role}\\) cannot .+\\.$`))
        }
      }
      const expected = MCP_TOOLS.filter((tool) => !can(role, tool.permission)).length
      expect(refused).toBe(expected)
      if (role === 'reviewer') expect(refused).toBeGreaterThan(10)
    }, 120_000)
  }

  it("lets a reviewer's agent approve a post and refuses it create_post", async () => {
    const { t, base } = await servedOAuthApp(closers)
    // Only a manager grants an agent; the grant then acts with the role the user has now.
    const reviewer = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'admin' })
    const provider = recordingOAuthProvider('http://127.0.0.1:43122/callback', 'Review Agent')
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider })
    await new Client({ name: 'a', version: '1' }).connect(transport).catch(() => undefined)
    const consent = await (await fetch(provider.authorizationUrl!, { headers: { cookie: reviewer.cookie } })).text()
    const requestToken = /name="request" value="([^"]+)"/.exec(consent)![1]!
    const allowed = await postForm(
      `${base}/app/oauth/authorize`,
      { _csrf: reviewer.csrfToken, request: requestToken, workspace: [t.workspaceId], decision: 'allow' },
      reviewer.cookie,
    )
    expect(allowed.status).toBe(303)
    await transport.finishAuth(new URL(allowed.headers.get('location')!).searchParams.get('code')!)
    await changeMemberRole(t.deps.db, t.workspaceId, reviewer.userId, 'reviewer')
    const agent = new Client({ name: 'review-agent', version: '1.0.0' })
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }))
    closers.push(() => agent.close())
    const call = async (name: string, args: Record<string, unknown>) =>
      (await agent.callTool({ name, arguments: args })) as CallToolResult

    const a = await account(t, 'MICROBLOG_NET')
    const created = await call('create_post', {
      type: 'IMAGE',
      accountIds: [a.id],
      mediaIds: [],
      action: 'draft',
      caption: 'an agent of a reviewer tries to write',
    })
    expect(created.isError).toBe(true)
    expect(errorOf(created)).toMatchObject({
      code: 'forbidden',
      message: 'Your role (reviewer) cannot create or change posts.',
    })
    const listed = await t.call('GET', '/v1/posts')
    expect(await listed.json()).toEqual([])

    const post = await postInReview(t, [a.id], 'for the client to approve')
    const approved = await call('approve_post', { id: post.id, version: post.version, comment: 'Fine by us.' })
    expect(approved.isError, JSON.stringify(approved.content)).toBeFalsy()
    expect(approved.structuredContent).toMatchObject({ id: post.id, status: 'APPROVED' })
    const log = await (await t.call('GET', `/v1/activity?subjectId=${post.id}&action=post.approved`)).json()
    expect(log.data[0].actor).toMatchObject({ kind: 'agent', name: 'Review Agent for Test member' })
  }, 60_000)
})
