/**
 * Discovery documents of the agents' authorization (the MCP authorization specification): the
 * protected-resource metadata of `/mcp` (RFC 9728) and the authorization server's metadata (RFC 8414).
 */
import type { Context } from 'hono'
import { AGENT_SCOPE } from '../../domain/agent-oauth'
import { baseUrlOf } from '../../http/base-url'
import type { AppEnv } from '../../http/context'

/** The resource an agent's token is for: the MCP endpoint. */
export const mcpResourceOf = (c: Context<AppEnv>) => `${baseUrlOf(c)}/mcp`

/** Where a 401 from `/mcp` points clients to (the path-suffixed form of RFC 9728 section 3.1). */
export const resourceMetadataUrlOf = (c: Context<AppEnv>) => `${baseUrlOf(c)}/.well-known/oauth-protected-resource/mcp`

export const protectedResourceMetadata = (c: Context<AppEnv>) => ({
  resource: mcpResourceOf(c),
  authorization_servers: [baseUrlOf(c)],
  scopes_supported: [AGENT_SCOPE],
  bearer_methods_supported: ['header'],
  resource_name: 'Social Publishing API (MCP)',
  resource_documentation: `${baseUrlOf(c)}/docs`,
})

export const authorizationServerMetadata = (c: Context<AppEnv>) => {
  const base = baseUrlOf(c)
  return {
    issuer: base,
    authorization_endpoint: `${base}/app/oauth/authorize`,
    token_endpoint: `${base}/oauth2/token`,
    registration_endpoint: `${base}/oauth2/register`,
    revocation_endpoint: `${base}/oauth2/revoke`,
    scopes_supported: [AGENT_SCOPE],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/docs`,
  }
}
