/**
 * How an MCP client finds where to sign in and registers itself (src/routes/agent-oauth): the 401
 * of `/mcp` pointing at the protected-resource metadata, the metadata documents, dynamic client
 * registration and its refusals, and the token endpoint's refusals in OAuth's own error body.
 */
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../support/test-app'

const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
})

describe('agent sign-in discovery', () => {
  it('a 401 from /mcp points at the protected-resource metadata, which names the authorization server', async () => {
    const t = await createTestApp({ publicUrl: 'https://sps.example' })
    const res = await t.call('POST', '/mcp', { token: null, body: {} })
    expect(res.status).toBe(401)
    const challenge = res.headers.get('www-authenticate')!
    expect(challenge).toBe('Bearer resource_metadata="https://sps.example/.well-known/oauth-protected-resource/mcp"')

    const prm = await (await t.call('GET', '/.well-known/oauth-protected-resource/mcp', { token: null })).json()
    expect(prm).toMatchObject({
      resource: 'https://sps.example/mcp',
      authorization_servers: ['https://sps.example'],
      scopes_supported: ['mcp'],
    })
    const asm = await (await t.call('GET', '/.well-known/oauth-authorization-server', { token: null })).json()
    expect(asm).toMatchObject({
      issuer: 'https://sps.example',
      authorization_endpoint: 'https://sps.example/app/oauth/authorize',
      token_endpoint: 'https://sps.example/oauth2/token',
      registration_endpoint: 'https://sps.example/oauth2/register',
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    })

    const refused = await t.call('POST', '/mcp', { token: 'sps_0000000000000000000000000000000000000000000', body: {} })
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"')
    // /v1 keeps the bare challenge: it is not the resource agents sign in for.
    const v1 = await t.call('GET', '/v1/me', { token: null })
    expect(v1.headers.get('www-authenticate')).toBe('Bearer')
  })

  it('registers a public client and refuses unsafe redirect URIs and confidential clients', async () => {
    const t = await createTestApp()
    const ok = await t.call('POST', '/oauth2/register', {
      token: null,
      body: { client_name: 'Claude', redirect_uris: ['http://127.0.0.1:33418/callback', 'cursor://anysphere/cb'] },
    })
    expect(ok.status).toBe(201)
    const client = await ok.json()
    expect(client).toMatchObject({
      client_name: 'Claude',
      token_endpoint_auth_method: 'none',
      redirect_uris: ['http://127.0.0.1:33418/callback', 'cursor://anysphere/cb'],
    })
    expect(client.client_id).toMatch(/^agc_/)
    expect(client.client_secret).toBeUndefined()

    const cases: Array<[unknown, string]> = [
      [{ redirect_uris: ['http://evil.example/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://app.example/cb#x'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [] }, 'invalid_redirect_uri'],
      [
        { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'client_secret_basic' },
        'invalid_client_metadata',
      ],
      [{ redirect_uris: ['https://app.example/cb'], response_types: ['token'] }, 'invalid_client_metadata'],
      [[1, 2], 'invalid_client_metadata'],
    ]
    for (const [body, error] of cases) {
      const res = await t.call('POST', '/oauth2/register', { token: null, body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect((await res.json()).error).toBe(error)
    }
  })

  it('sends a user who is not signed in to the sign-in page, then back to the same authorization', async () => {
    const t = await createTestApp()
    const res = await t.call('GET', '/app/oauth/authorize?client_id=agc_x&response_type=code', { token: null })
    expect(res.status).toBe(303)
    const location = new URL(res.headers.get('location')!, 'http://localhost')
    expect(location.pathname).toBe('/app/sign-in')
    expect(location.searchParams.get('next')).toBe('/app/oauth/authorize?client_id=agc_x&response_type=code')
  })

  it('the token endpoint refuses in OAuth terms: unknown client, unknown grant, missing verifier, bad code', async () => {
    const t = await createTestApp()
    const { client_id } = await (
      await t.call('POST', '/oauth2/register', { token: null, body: { redirect_uris: ['https://app.example/cb'] } })
    ).json()
    const post = async (fields: Record<string, string>) => {
      const res = await t.call('POST', '/oauth2/token', { token: null, ...form(fields) })
      expect(res.headers.get('cache-control')).toBe('no-store')
      return { status: res.status, body: await res.json() }
    }
    expect(await post({ grant_type: 'authorization_code', client_id: 'agc_nope', code: 'x' })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    })
    expect(await post({ grant_type: 'password', client_id })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type' },
    })
    expect(await post({ grant_type: 'authorization_code', client_id, code: 'abc' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    })
    const verifier = 'v'.repeat(43)
    expect(
      await post({ grant_type: 'authorization_code', client_id, code: 'abc', code_verifier: verifier }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
    expect(
      await post({ grant_type: 'refresh_token', client_id, refresh_token: `spr_${'a'.repeat(43)}` }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
  })
})
