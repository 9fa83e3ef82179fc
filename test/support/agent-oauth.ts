/**
 * An MCP client's side of OAuth, as an agent application holds it: the SDK's `OAuthClientProvider`
 * kept in memory, recording where it would send the user's browser. Tests play the browser.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'

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
