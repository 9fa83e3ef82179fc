/** Dynamic client registration (RFC 7591) for MCP clients: public clients that prove themselves with PKCE. */
import { AGENT_CLIENT_LIMITS, AgentOAuthError, redirectUriProblem } from '../../domain/agent-oauth'
import { findAgentClient, insertAgentClient } from '../../db/queries/agent-oauth'
import type { Db } from '../../db/types'
import { newId } from '../../lib/ids'

/** What we answer a registration with (RFC 7591 section 3.2.1). */
export interface RegisteredAgentClient {
  client_id: string
  client_id_issued_at: number
  client_name: string
  redirect_uris: string[]
  grant_types: string[]
  response_types: string[]
  token_endpoint_auth_method: 'none'
}

const asStringList = (value: unknown): string[] | null =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null

/**
 * Registers a client from its metadata. Only public clients (`token_endpoint_auth_method` absent or
 * `none`) with the authorization-code grant; other metadata is ignored, as RFC 7591 allows.
 */
export async function registerAgentClient(db: Db, metadata: Record<string, unknown>): Promise<RegisteredAgentClient> {
  const redirectUris = asStringList(metadata.redirect_uris)
  if (!redirectUris || redirectUris.length === 0)
    throw new AgentOAuthError('invalid_redirect_uri', 'redirect_uris must be a non-empty array of URIs.')
  if (redirectUris.length > AGENT_CLIENT_LIMITS.redirectUrisMax)
    throw new AgentOAuthError('invalid_redirect_uri', `At most ${AGENT_CLIENT_LIMITS.redirectUrisMax} redirect_uris.`)
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri)
    if (problem)
      throw new AgentOAuthError('invalid_redirect_uri', `The redirect URI ${JSON.stringify(uri)} ${problem}.`)
  }
  const method = metadata.token_endpoint_auth_method ?? 'none'
  if (method !== 'none')
    throw new AgentOAuthError(
      'invalid_client_metadata',
      'Only public clients are registered: token_endpoint_auth_method must be "none" (PKCE protects the code).',
    )
  const grantTypes = asStringList(metadata.grant_types) ?? ['authorization_code', 'refresh_token']
  if (!grantTypes.includes('authorization_code') || grantTypes.some((g) => !SUPPORTED_GRANTS.has(g)))
    throw new AgentOAuthError('invalid_client_metadata', 'grant_types may be authorization_code and refresh_token.')
  const responseTypes = asStringList(metadata.response_types) ?? ['code']
  if (responseTypes.some((r) => r !== 'code'))
    throw new AgentOAuthError('invalid_client_metadata', 'response_types may only be "code".')
  const rawName = typeof metadata.client_name === 'string' ? metadata.client_name.trim() : ''
  if (rawName.length > AGENT_CLIENT_LIMITS.nameMaxLength)
    throw new AgentOAuthError(
      'invalid_client_metadata',
      `client_name is longer than ${AGENT_CLIENT_LIMITS.nameMaxLength}.`,
    )
  const name = rawName || 'An unnamed MCP client'
  const row = await insertAgentClient(db, { id: newId('agentClient'), name, redirectUris })
  return {
    client_id: row.id,
    client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000),
    client_name: row.name,
    redirect_uris: row.redirectUris,
    grant_types: grantTypes,
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  }
}

const SUPPORTED_GRANTS = new Set(['authorization_code', 'refresh_token'])

/** A registered client, or the protocol's `invalid_client`. */
export async function requireAgentClient(db: Db, clientId: string | undefined) {
  const client = clientId ? await findAgentClient(db, clientId) : null
  if (!client) throw new AgentOAuthError('invalid_client', 'Unknown client_id: register the client first.')
  return client
}
