/**
 * One agent grant across several workspaces (issue 34, item 1): the SDK's client signs in through
 * OAuth, the user ticks two of their workspaces, list_workspaces answers both with the user's role,
 * tools work in each through `workspaceId`, a workspace outside the grant is not found, and leaving a
 * workspace cuts the grant off there at the very next call. A personal token stays in its own workspace.
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, describe, expect, it } from 'vitest'
import { addMember, removeMember } from '../../src/services/people/memberships'
import { listTokens } from '../../src/services/tokens'
import { createUser } from '../../src/services/people/users'
import { createWorkspace } from '../../src/services/workspace/workspaces'
import { postForm, recordingOAuthProvider, servedOAuthApp } from '../support/agent-oauth'
import { signInMember } from '../support/dashboard'
import { mcpSession } from '../support/mcp'

const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

const errorOf = (result: CallToolResult) => {
  expect(result.isError).toBe(true)
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '{}'
  return (JSON.parse(text) as { error: { code: string; message: string } }).error
}

describe('an agent grant over several workspaces', () => {
  it('covers the ticked workspaces, each while the user is still a member there', async () => {
    const { t, base } = await servedOAuthApp(closers)
    const member = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'admin' })
    const second = await createWorkspace(t.deps.db, { name: 'Second desk' })
    const unticked = await createWorkspace(t.deps.db, { name: 'Not for agents' })
    const foreign = await createWorkspace(t.deps.db, { name: 'Someone else' })
    const keeper = await createUser(t.deps, {
      email: 'keeper@example.com',
      name: 'Keeper',
      password: 'pw-keeper-0123456',
    })
    await t.deps.db.transaction(async (tx) => {
      await addMember(tx, second.id, member.userId, 'owner')
      await addMember(tx, second.id, keeper.id, 'owner')
      await addMember(tx, unticked.id, member.userId, 'admin')
    })

    const provider = recordingOAuthProvider('http://127.0.0.1:43120/callback', 'Two Desk Agent')
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider })
    await expect(new Client({ name: 'a', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError)
    const consent = await (await fetch(provider.authorizationUrl!, { headers: { cookie: member.cookie } })).text()
    const requestToken = /name="request" value="([^"]+)"/.exec(consent)![1]!
    // A checkbox per workspace the user manages; the one they were in comes first, ticked.
    const boxes = [...consent.matchAll(/type="checkbox" name="workspace" value="([^"]+)"( checked)?/g)]
    expect(boxes.map((m) => m[1])).toEqual(expect.arrayContaining([t.workspaceId, second.id, unticked.id]))
    expect(boxes[0]![1]).toBe(t.workspaceId)
    expect(boxes.filter((m) => m[2]).map((m) => m[1])).toEqual([t.workspaceId])
    expect(consent).not.toContain(foreign.id)

    const decide = (workspace: string[]) =>
      postForm(
        `${base}/app/oauth/authorize`,
        { _csrf: member.csrfToken, request: requestToken, workspace, decision: 'allow' },
        member.cookie,
      )
    const none = await decide([])
    expect(none.status).toBe(400)
    expect(await none.text()).toContain('Tick at least one workspace')
    expect((await decide([t.workspaceId, foreign.id])).status).toBe(404)
    const allowed = await decide([t.workspaceId, second.id])
    expect(allowed.status).toBe(303)
    await transport.finishAuth(new URL(allowed.headers.get('location')!).searchParams.get('code')!)

    const agent = new Client({ name: 'two-desk-agent', version: '1.0.0' })
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }))
    closers.push(() => agent.close())
    const listed = await agent.listTools()
    const byName = new Map(listed.tools.map((tool) => [tool.name, tool]))
    expect(byName.get('get_workspace')!.inputSchema.properties).toHaveProperty('workspaceId')
    expect(byName.get('platform_limits')!.inputSchema.properties).not.toHaveProperty('workspaceId')
    const call = (name: string, args: Record<string, unknown> = {}) =>
      agent.callTool({ name, arguments: args }) as Promise<CallToolResult>
    const ok = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await call(name, args)
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy()
      return result.structuredContent as any
    }

    expect((await ok('list_workspaces')).workspaces).toEqual([
      { workspaceId: t.workspaceId, name: expect.any(String), role: 'admin', default: true },
      { workspaceId: second.id, name: 'Second desk', role: 'owner', default: false },
    ])
    // Without workspaceId: the default; with it, that workspace, and its data only.
    expect((await ok('get_workspace')).workspaceId).toBe(t.workspaceId)
    expect((await ok('get_workspace', { workspaceId: second.id })).workspaceId).toBe(second.id)
    await ok('set_queue_slots', { workspaceId: second.id, slots: [{ weekday: 3, time: '08:15' }] })
    expect((await ok('get_queue_slots', { workspaceId: second.id })).slots).toMatchObject([{ weekday: 3 }])
    expect((await ok('get_queue_slots')).slots).toEqual([])

    // Outside the grant, another tenant's, or not an id: as if it did not exist.
    for (const outside of [unticked.id, foreign.id]) {
      const refused = errorOf(await call('get_workspace', { workspaceId: outside }))
      expect(refused.code).toBe('not_found')
      expect(refused.message).toContain(second.id)
    }
    expect(errorOf(await call('list_accounts', { workspaceId: 42 })).code).toBe('invalid_request')

    // The grant is listed, with what it covers, in each workspace it covers; not in the unticked one.
    const inSecond = (await listTokens(t.deps.db, second.id)).find((k) => k.name === 'Two Desk Agent (agent, OAuth)')
    expect(inSecond?.grantWorkspaces).toEqual([expect.any(String), 'Second desk'])
    expect(inSecond?.lastUsedAt).not.toBeNull()
    const page = await (
      await fetch(`${base}/app/w/${second.id}/settings/tokens`, { headers: { cookie: member.cookie } })
    ).text()
    expect(page).toMatch(/Agent grant: [^<]+, Second desk/)
    expect((await listTokens(t.deps.db, unticked.id)).some((k) => k.grantWorkspaces)).toBe(false)

    // The user leaves the second workspace: the very next call there is not found; the default still works.
    await removeMember(t.deps.db, second.id, member.userId)
    expect(errorOf(await call('get_workspace', { workspaceId: second.id })).code).toBe('not_found')
    expect((await ok('get_workspace', { workspaceId: t.workspaceId })).workspaceId).toBe(t.workspaceId)
    expect((await ok('list_workspaces')).workspaces.map((w: { workspaceId: string }) => w.workspaceId)).toEqual([
      t.workspaceId,
    ])

    // ... and once they leave the default one too, a call without workspaceId reaches nothing.
    await removeMember(t.deps.db, t.workspaceId, member.userId)
    expect(errorOf(await call('list_accounts')).code).toBe('not_found')
    expect((await ok('list_workspaces')).workspaces).toEqual([])
  })

  it('a personal token reaches its own workspace only', async () => {
    const { t, base } = await servedOAuthApp(closers)
    const other = await createWorkspace(t.deps.db, { name: 'Elsewhere' })
    const session = await mcpSession(t, base)
    expect((await session.ok('list_workspaces')).workspaces).toEqual([
      { workspaceId: t.workspaceId, name: expect.any(String), role: null, default: true },
    ])
    expect((await session.ok('get_workspace', { workspaceId: t.workspaceId })).workspaceId).toBe(t.workspaceId)
    expect((await session.refused('get_workspace', { workspaceId: other.id })).code).toBe('not_found')
    expect((await session.refused('list_accounts', { workspaceId: other.id })).code).toBe('not_found')
  })
})
