/**
 * An MCP client's side of OAuth, as an agent application holds it: the SDK's `OAuthClientProvider`
 * kept in memory, recording where it would send the user's browser. Tests play the browser.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { createTestApp, type TestApp } from './test-app'

/** The SDK's own types, read off the provider interface it declares. */
type OAuthClientMetadata = OAuthClientProvider['clientMetadata']
type OAuthClientInformationMixed = Parameters<NonNullable<OAuthClientProvider['saveClientInformation']>>[0]
type OAuthTokens = Parameters<OAuthClientProvider['saveTokens']>[0]

export interface RecordingOAuthProvider extends OAuthClientProvider {
  /** The authorization URL the client asked to open in a browser (the last one). */
  authorizationUrl: URL | null
  saved: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens }
}

export function recordingOAuthProvider(redirectUrl: string, clientName = 'Test agent'): RecordingOAuthProvider {
  let verifier = ''
  const provider: RecordingOAuthProvider = {
    authorizationUrl: null,
    saved: {},
    get redirectUrl() {
      return redirectUrl
    },
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: clientName,
        redirect_uris: [redirectUrl],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }
    },
    state: () => 'state-from-the-agent',
    clientInformation: () => provider.saved.client,
    saveClientInformation: (info) => {
      provider.saved.client = info
    },
    tokens: () => provider.saved.tokens,
    saveTokens: (tokens) => {
      provider.saved.tokens = tokens
    },
    redirectToAuthorization: (url) => {
      provider.authorizationUrl = url
    },
    saveCodeVerifier: (v) => {
      verifier = v
    },
    codeVerifier: () => verifier,
  }
  return provider
}

/** A free loopback port, so the app's public URL is the address the client really uses. */
async function freePort(): Promise<number> {
  const probe = serve({ fetch: () => new Response(), hostname: '127.0.0.1', port: 0 })
  await new Promise<void>((r) => (probe.listening ? r() : probe.once('listening', () => r())))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((r) => probe.close(() => r()))
  return port
}

/** The test app served on loopback with its public URL the served address (the MCP resource). Closed by `closers`. */
export async function servedOAuthApp(closers: Array<() => Promise<void>>): Promise<{ t: TestApp; base: string }> {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const t = await createTestApp({ publicUrl: base })
  const server = serve({ fetch: t.app.fetch, hostname: '127.0.0.1', port })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  closers.push(() => new Promise<void>((r) => server.close(() => r())))
  return { t, base }
}

/** A form POST as a browser (with the session cookie) or the client's HTTP library sends it; repeated fields as arrays. */
export const postForm = (url: string, fields: Record<string, string | string[]>, cookie?: string) => {
  const body = new URLSearchParams()
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v)
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body,
    redirect: 'manual',
  })
}
