/**
 * The token endpoint's grants and revocation. An access token issued to an agent is a workspace
 * token like a personal one (same format, stored hashed, listed and revocable with the tokens of
 * each workspace its grant covers; its row is in the default one) that expires after an hour, is accepted by `/mcp` only (its audience), and is renewed
 * with a rotating refresh token.
 */
import { AGENT_OAUTH_LIFETIMES, AGENT_SCOPE, AgentOAuthError, CODE_VERIFIER_PATTERN } from '../../domain/agent-oauth'
import {
  findAgentTokenByHash,
  findUsedAgentCode,
  insertAgentToken,
  noteAgentCodeToken,
  rotateAgentToken,
  takeAgentCode,
} from '../../db/queries/agent-oauth'
import { insertAgentGrant, selectAuthorizationWorkspaces } from '../../db/queries/agent-grants'
import { revokeLiveToken } from '../../db/queries/tokens'
import type { Deps } from '../../deps'
import { constantTimeEqual, sha256Base64Url, sha256Hex } from '../../lib/crypto'
import { newId, randomBase62 } from '../../lib/ids'
import { TOKEN_PREFIX } from '../tokens'
import { requireAgentClient } from './clients'

/** Refresh tokens: a prefix of their own, so one is never mistaken for an access token. */
const REFRESH_PREFIX = 'spr_'

/** The token response of RFC 6749 section 5.1. */
export interface AgentTokenResponse {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  refresh_token: string
  scope: string
}

async function freshTokens(now: Date) {
  const access = TOKEN_PREFIX + randomBase62(43)
  const refresh = REFRESH_PREFIX + randomBase62(43)
  return {
    response: {
      access_token: access,
      token_type: 'Bearer' as const,
      expires_in: AGENT_OAUTH_LIFETIMES.accessTokenMs / 1000,
      refresh_token: refresh,
      scope: AGENT_SCOPE,
    },
    stored: {
      tokenHash: await sha256Hex(access),
      hint: access.slice(0, 8),
      expiresAt: new Date(now.getTime() + AGENT_OAUTH_LIFETIMES.accessTokenMs),
      refreshTokenHash: await sha256Hex(refresh),
      refreshExpiresAt: new Date(now.getTime() + AGENT_OAUTH_LIFETIMES.refreshTokenMs),
    },
  }
}

export interface CodeGrant {
  clientId?: string
  code?: string
  codeVerifier?: string
  redirectUri?: string
  resource?: string
}

/**
 * `grant_type=authorization_code`: the code once, by the client it was issued to, with the PKCE
 * verifier of its challenge and the same redirect URI. A code presented a second time revokes the
 * token issued for it (RFC 6749 4.1.2).
 */
export async function exchangeAgentCode(deps: Deps, grant: CodeGrant): Promise<AgentTokenResponse> {
  const client = await requireAgentClient(deps.db, grant.clientId)
  if (!grant.code || !grant.codeVerifier || !CODE_VERIFIER_PATTERN.test(grant.codeVerifier))
    throw new AgentOAuthError('invalid_request', 'code and code_verifier (43-128 characters) are required.')
  const now = deps.clock.now()
  const codeHash = await sha256Hex(grant.code)
  const challenge = await sha256Base64Url(grant.codeVerifier)
  const issued = await deps.db.transaction(async (tx) => {
    const authorization = await takeAgentCode(tx, codeHash, now)
    if (!authorization) return null
    if (
      authorization.clientId !== client.id ||
      !authorization.workspaceId ||
      authorization.redirectUri !== grant.redirectUri ||
      !constantTimeEqual(authorization.codeChallenge, challenge)
    )
      throw new AgentOAuthError('invalid_grant', 'The code was not issued for this client, redirect URI or verifier.')
    if (grant.resource !== undefined && grant.resource !== authorization.resource)
      throw new AgentOAuthError('invalid_target', `The code was issued for ${authorization.resource}.`)
    const tokens = await freshTokens(now)
    const tokenId = newId('token')
    await insertAgentToken(tx, {
      id: tokenId,
      workspaceId: authorization.workspaceId,
      name: `${client.name} (agent, OAuth)`,
      agentClientId: client.id,
      ...tokens.stored,
    })
    await insertAgentGrant(tx, {
      tokenId,
      userId: authorization.userId,
      workspaceIds: await selectAuthorizationWorkspaces(tx, authorization.id),
    })
    await noteAgentCodeToken(tx, authorization.id, tokenId)
    return tokens.response
  })
  if (issued) return issued
  // Not taken: unknown, expired, or used already, in which case what it issued is revoked (outside the
  // refused transaction, so the revocation holds).
  const replayed = await findUsedAgentCode(deps.db, codeHash)
  if (replayed?.tokenId) await revokeLiveToken(deps.db, replayed.tokenId, now)
  throw new AgentOAuthError('invalid_grant', 'The code is unknown, expired or already used.')
}

/** `grant_type=refresh_token`: a new access token and a new refresh token; the old refresh token stops working. */
export async function refreshAgentToken(
  deps: Deps,
  grant: { clientId?: string; refreshToken?: string },
): Promise<AgentTokenResponse> {
  const client = await requireAgentClient(deps.db, grant.clientId)
  if (!grant.refreshToken?.startsWith(REFRESH_PREFIX))
    throw new AgentOAuthError('invalid_request', 'refresh_token is required.')
  const now = deps.clock.now()
  const tokens = await freshTokens(now)
  const rotated = await rotateAgentToken(deps.db, await sha256Hex(grant.refreshToken), client.id, tokens.stored, now)
  if (!rotated) throw new AgentOAuthError('invalid_grant', 'The refresh token is unknown, expired, used or revoked.')
  return tokens.response
}

/**
 * Revocation (RFC 7009): an access or refresh token of this client stops working, and with it the
 * whole grant. An unknown token is not an error (the answer is the same either way).
 */
export async function revokeAgentToken(deps: Deps, input: { clientId?: string; token?: string }): Promise<void> {
  const client = await requireAgentClient(deps.db, input.clientId)
  if (!input.token) throw new AgentOAuthError('invalid_request', 'token is required.')
  const found = await findAgentTokenByHash(deps.db, await sha256Hex(input.token), client.id)
  if (found) await revokeLiveToken(deps.db, found.id, deps.clock.now())
}
