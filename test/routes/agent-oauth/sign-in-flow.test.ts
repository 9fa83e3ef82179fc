/**
 * An agent signing in end to end (issue 19, item 4): the SDK's own client discovers the
 * authorization server from /mcp's 401, registers, sends the user to the consent page (the test
 * plays the browser with a signed-in dashboard user), exchanges the code, calls a tool in the
 * chosen workspace, refreshes, and is cut off when the grant is revoked from the token list.
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { auth } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, describe, expect, it } from 'vitest'
import { listTokens, revokeToken } from '../../../src/services/tokens'
import { postForm, recordingOAuthProvider, servedOAuthApp } from '../../support/agent-oauth'
import { signInMember } from '../../support/dashboard'

const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers) await close()
})

describe('an agent signs in with OAuth', () => {
  it('discovers, registers, gets consent for one workspace, calls tools there, refreshes, and is revoked', async () => {
    const { t, base } = await servedOAuthApp(closers)
    const member = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'owner' })
    const provider = recordingOAuthProvider('http://127.0.0.1:43110/callback', 'Desk Agent')
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider })
    const client = new Client({ name: 'desk-agent', version: '1.0.0' })
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError)

    // The client registered itself and wants the user's browser at our authorization endpoint.
    const authorizationUrl = provider.authorizationUrl!
    expect(authorizationUrl.href.startsWith(`${base}/app/oauth/authorize?`)).toBe(true)
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${base}/mcp`)
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256')

    // The browser, signed in to the dashboard: the consent page, then Allow for the workspace.
    const consent = await fetch(authorizationUrl, { headers: { cookie: member.cookie }, redirect: 'manual' })
    expect(consent.status).toBe(200)
    const page = await consent.text()
    expect(page).toContain('Desk Agent')
    expect(page).toContain('127.0.0.1:43110')
    const requestToken = /name="request" value="([^"]+)"/.exec(page)![1]!
    expect(page).toContain(`value="${t.workspaceId}"`)
    const allowed = await postForm(
      `${base}/app/oauth/authorize`,
      {
        _csrf: member.csrfToken,
        request: requestToken,
        workspace: t.workspaceId,
        decision: 'allow',
      },
      member.cookie,
    )
    expect(allowed.status).toBe(303)
    const back = new URL(allowed.headers.get('location')!)
    expect(back.origin + back.pathname).toBe('http://127.0.0.1:43110/callback')
    expect(back.searchParams.get('state')).toBe('state-from-the-agent')
    expect(back.searchParams.get('iss')).toBe(base)

    // The same decision cannot be replayed.
    const replay = await postForm(
      `${base}/app/oauth/authorize`,
      {
        _csrf: member.csrfToken,
        request: requestToken,
        workspace: t.workspaceId,
        decision: 'allow',
      },
      member.cookie,
    )
    expect(replay.status).toBe(400)

    await transport.finishAuth(back.searchParams.get('code')!)
    const access = provider.saved.tokens!.access_token
    expect(provider.saved.tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'mcp' })

    const agent = new Client({ name: 'desk-agent', version: '1.0.0' })
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }))
    const workspace = (await agent.callTool({ name: 'get_workspace', arguments: {} })) as any
    expect(workspace.structuredContent.workspaceId).toBe(t.workspaceId)
    await agent.close()

    // The token is for /mcp only: the REST API does not take it.
    expect((await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${access}` } })).status).toBe(401)
    // A code works once.
    const again = await postForm(`${base}/oauth2/token`, {
      grant_type: 'authorization_code',
      client_id: (provider.saved.client as { client_id: string }).client_id,
      code: back.searchParams.get('code')!,
      code_verifier: await provider.codeVerifier(),
      redirect_uri: provider.redirectUrl as string,
    })
    expect(((await again.json()) as { error: string }).error).toBe('invalid_grant')
    // ... and presenting it again revoked what it issued (RFC 6749 4.1.2): the grant is listed, revoked.
    const grants = (await listTokens(t.deps.db, t.workspaceId)).filter((k) => k.name === 'Desk Agent (agent, OAuth)')
    expect(grants).toHaveLength(1)
    expect(grants[0]!.revokedAt).not.toBeNull()
  })

  it('rotates the refresh token, and a grant revoked from the token list stops both tokens', async () => {
    const { t, base } = await servedOAuthApp(closers)
    const member = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'admin' })
    const provider = recordingOAuthProvider('http://127.0.0.1:43111/callback', 'Refreshing Agent')
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider })
    await expect(new Client({ name: 'a', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError)
    const consent = await (await fetch(provider.authorizationUrl!, { headers: { cookie: member.cookie } })).text()
    const requestToken = /name="request" value="([^"]+)"/.exec(consent)![1]!
    const allowed = await postForm(
      `${base}/app/oauth/authorize`,
      {
        _csrf: member.csrfToken,
        request: requestToken,
        workspace: t.workspaceId,
        decision: 'allow',
      },
      member.cookie,
    )
    await transport.finishAuth(new URL(allowed.headers.get('location')!).searchParams.get('code')!)
    const first = provider.saved.tokens!

    // The SDK refreshes when it holds a refresh token: both tokens are new, the old refresh token is dead.
    expect(await auth(provider, { serverUrl: `${base}/mcp` })).toBe('AUTHORIZED')
    const second = provider.saved.tokens!
    expect(second.access_token).not.toBe(first.access_token)
    expect(second.refresh_token).not.toBe(first.refresh_token)
    const reuse = await postForm(`${base}/oauth2/token`, {
      grant_type: 'refresh_token',
      client_id: (provider.saved.client as { client_id: string }).client_id,
      refresh_token: first.refresh_token!,
    })
    expect(((await reuse.json()) as { error: string }).error).toBe('invalid_grant')

    const mcp = (token: string) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
    expect((await mcp(first.access_token)).status).toBe(401)
    expect((await mcp(second.access_token)).status).toBe(200)

    // The user revokes the grant where they revoke tokens.
    const grant = (await listTokens(t.deps.db, t.workspaceId)).find(
      (k) => k.name === 'Refreshing Agent (agent, OAuth)',
    )!
    await revokeToken(t.deps.db, grant.id, new Date())
    expect((await mcp(second.access_token)).status).toBe(401)
    const refresh = await postForm(`${base}/oauth2/token`, {
      grant_type: 'refresh_token',
      client_id: (provider.saved.client as { client_id: string }).client_id,
      refresh_token: second.refresh_token!,
    })
    expect(refresh.status).toBe(400)
  })

  it('a member who manages no workspace cannot allow, and a workspace they do not manage is refused', async () => {
    const { t, base } = await servedOAuthApp(closers)
    const member = await signInMember(t.app, t.deps, { workspaceId: t.workspaceId, role: 'member' })
    const provider = recordingOAuthProvider('http://127.0.0.1:43112/callback')
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider })
    await expect(new Client({ name: 'a', version: '1' }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError)
    const consent = await (await fetch(provider.authorizationUrl!, { headers: { cookie: member.cookie } })).text()
    expect(consent).toContain('only owners and admins can allow an agent')
    expect(consent).not.toContain('value="allow"')
    const requestToken = /name="request" value="([^"]+)"/.exec(consent)![1]!
    const forced = await postForm(
      `${base}/app/oauth/authorize`,
      {
        _csrf: member.csrfToken,
        request: requestToken,
        workspace: t.workspaceId,
        decision: 'allow',
      },
      member.cookie,
    )
    expect(forced.status).toBe(404)
    const denied = await postForm(
      `${base}/app/oauth/authorize`,
      { _csrf: member.csrfToken, request: requestToken, decision: 'deny' },
      member.cookie,
    )
    expect(denied.status).toBe(303)
    expect(new URL(denied.headers.get('location')!).searchParams.get('error')).toBe('access_denied')
  })
})
