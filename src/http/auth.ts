import type { Context, MiddlewareHandler } from 'hono'
import { authenticateToken } from '../services/tokens'
import type { AppEnv } from './context'
import { AppError } from '../domain/errors'

export interface TokenCheckOptions {
  /** Accept tokens issued to agents through OAuth (their audience is the MCP endpoint only). */
  agentTokens?: boolean
  /**
   * The protected-resource metadata (RFC 9728) a 401 points to, so an MCP client can find where to
   * sign in (`WWW-Authenticate: Bearer resource_metadata="..."`).
   */
  resourceMetadataUrl?: (c: Context<AppEnv>) => string
}

/** What a refused token is told, by the reason it was refused. */
const REFUSALS = {
  invalid: 'The API token is malformed, unknown, expired or revoked.',
  agent_token:
    'This is an agent token (issued to an AI agent through OAuth): it is valid for /mcp only. ' +
    'Call /v1 with an API token created in the dashboard (Settings, API tokens).',
} as const

/**
 * `Authorization: Bearer <token>`; the workspace comes from the token alone. A 401 names the scheme
 * in `WWW-Authenticate` (RFC 6750): `Bearer` when no token came, with `error="invalid_token"` when
 * one came and was refused.
 */
export const requireToken =
  (options: TokenCheckOptions = {}): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const challenge = (error: boolean) => {
      const params = [
        ...(options.resourceMetadataUrl ? [`resource_metadata="${options.resourceMetadataUrl(c)}"`] : []),
        ...(error ? ['error="invalid_token"'] : []),
      ]
      c.header('WWW-Authenticate', params.length ? `Bearer ${params.join(', ')}` : 'Bearer')
    }
    const header = c.req.header('authorization') ?? ''
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
    if (!match) {
      // A bearer token that does not parse was refused; no token (or another scheme) gets the bare challenge.
      challenge(/^Bearer\s+\S/i.test(header))
      throw new AppError('unauthorized', 'Send your API token as `Authorization: Bearer <token>`.')
    }
    const deps = c.get('deps')
    const check = await authenticateToken(deps.db, match[1]!, deps.clock.now(), {
      agentTokens: options.agentTokens ?? false,
    })
    if (!check.accepted) {
      challenge(true)
      throw new AppError('unauthorized', REFUSALS[check.refusal])
    }
    c.set('auth', {
      workspaceId: check.workspaceId,
      tokenId: check.tokenId,
      agent: check.agent,
      access: check.access,
      actor: check.actor,
      userId: check.userId,
    })
    await next()
  }
