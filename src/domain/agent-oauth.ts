/**
 * The rules of the authorization server agents sign in through (OAuth 2.1 as the MCP authorization
 * specification profiles it): what a client may register, which redirect URIs are acceptable,
 * lifetimes, and the errors of RFC 6749 / RFC 7591 (their own body, `{ error, error_description }`,
 * not the API's error body).
 */

/** The one scope: the whole MCP endpoint, within the workspace the user picks. */
export const AGENT_SCOPE = 'mcp'

export const AGENT_OAUTH_LIFETIMES = {
  /** From showing the consent page to the user's decision. */
  requestMs: 10 * 60_000,
  /** From the decision to the code's exchange (single use). */
  codeMs: 5 * 60_000,
  accessTokenMs: 60 * 60_000,
  refreshTokenMs: 30 * 24 * 60 * 60_000,
} as const

export const AGENT_CLIENT_LIMITS = { nameMaxLength: 200, redirectUrisMax: 10, uriMaxLength: 2000 } as const

/** The error codes of RFC 6749 section 5.2 / 4.1.2.1, RFC 7009 and RFC 7591 section 3.2.2 that we answer. */
export type AgentOAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'invalid_target'

/** A refusal of the authorization server, in the protocol's own words. */
export class AgentOAuthError extends Error {
  readonly code: AgentOAuthErrorCode
  constructor(code: AgentOAuthErrorCode, description: string) {
    super(description)
    this.name = 'AgentOAuthError'
    this.code = code
  }
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:'])

/**
 * Why a redirect URI cannot be registered, or null when it can: an absolute URI without a fragment;
 * https, plain http only to a loopback host (RFC 8252 7.3), or a native app's private-use scheme
 * (RFC 8252 7.1, e.g. `cursor://`); never a scheme that runs or reads something locally.
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > AGENT_CLIENT_LIMITS.uriMaxLength) return 'is too long'
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return 'is not an absolute URI'
  }
  if (url.hash || uri.includes('#')) return 'must not have a fragment'
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `may not use the ${url.protocol} scheme`
  if (url.username || url.password) return 'must not carry credentials'
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname))
    return 'must use https (plain http only to 127.0.0.1, [::1] or localhost)'
  return null
}

/**
 * Whether a redirect URI presented at authorization is one the client registered: the same string,
 * or for a loopback http URI the same but for its port (native apps pick a free port each time).
 */
export function redirectUriRegistered(presented: string, registered: readonly string[]): boolean {
  if (registered.includes(presented)) return true
  let url: URL
  try {
    url = new URL(presented)
  } catch {
    return false
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return false
  url.port = ''
  return registered.some((r) => {
    const candidate = new URL(r)
    if (candidate.protocol !== 'http:' || !LOOPBACK_HOSTS.has(candidate.hostname)) return false
    candidate.port = ''
    return candidate.href === url.href
  })
}

/** The origin a form may be sent on to for a redirect URI (CSP `form-action`): its origin, or its scheme. */
export function redirectTarget(uri: string): string {
  const url = new URL(uri)
  return url.origin !== 'null' ? url.origin : url.protocol
}

/** PKCE (RFC 7636): a code verifier is 43-128 characters of the unreserved set; a S256 challenge is 43 base64url. */
export const CODE_VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/
export const CODE_CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/
