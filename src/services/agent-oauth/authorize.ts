/**
 * The authorization endpoint's use cases: checking a request, holding it while the signed-in user
 * decides (the consent page), and recording the decision as a single-use code bound to the
 * workspaces the user picked.
 */
import {
  AGENT_OAUTH_LIFETIMES,
  AGENT_SCOPE,
  CODE_CHALLENGE_PATTERN,
  redirectUriRegistered,
} from '../../domain/agent-oauth'
import {
  decideAgentAuthorization,
  deleteExpiredAgentAuthorizations,
  findOpenAgentAuthorization,
  insertAgentAuthorization,
} from '../../db/queries/agent-oauth'
import { insertAuthorizationWorkspaces } from '../../db/queries/agent-grants'
import type { Deps } from '../../deps'
import { sha256Hex } from '../../lib/crypto'
import { newId, randomBase62 } from '../../lib/ids'
import { requireAgentClient } from './clients'

export interface AuthorizationParams {
  response_type?: string
  client_id?: string
  redirect_uri?: string
  code_challenge?: string
  code_challenge_method?: string
  state?: string
  scope?: string
  resource?: string
}

/**
 * A request we cannot send back to the client (unknown client, unregistered redirect URI): the page
 * says so, and nothing is redirected (RFC 6749 4.1.2.1).
 */
export class UnsafeAuthorizationRequest extends Error {}

/** A refusal we send back to the client's redirect URI (`error`, `error_description`, `state`, `iss`). */
export class AuthorizationRefusal extends Error {
  constructor(
    readonly redirectUri: string,
    readonly code: string,
    message: string,
    readonly state: string | undefined,
  ) {
    super(message)
  }
}

/** Where the client is sent back to with the outcome, as RFC 6749 and RFC 9207 (`iss`) describe. */
export function clientRedirect(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri)
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value)
  return url.href
}

export interface PendingAuthorization {
  /** The consent form's key (only its hash is stored). */
  requestToken: string
  clientName: string
  redirectUri: string
}

/**
 * Checks an authorization request and holds it for the user's decision. `resource` defaults to the
 * MCP endpoint and must be it when given (RFC 8707); PKCE S256 is required (OAuth 2.1).
 */
export async function openAgentAuthorization(
  deps: Deps,
  params: AuthorizationParams,
  context: { userId: string; mcpResource: string },
): Promise<PendingAuthorization> {
  const client = await requireAgentClient(deps.db, params.client_id).catch(() => {
    throw new UnsafeAuthorizationRequest('The application that sent you here is not registered with this service.')
  })
  const redirectUri = params.redirect_uri
  if (!redirectUri || !redirectUriRegistered(redirectUri, client.redirectUris))
    throw new UnsafeAuthorizationRequest('The application asked to be answered at an address it did not register.')
  const refuse = (code: string, message: string) => new AuthorizationRefusal(redirectUri, code, message, params.state)
  if (params.response_type !== 'code') throw refuse('unsupported_response_type', 'response_type must be "code".')
  if (params.code_challenge_method !== 'S256' || !CODE_CHALLENGE_PATTERN.test(params.code_challenge ?? ''))
    throw refuse(
      'invalid_request',
      'PKCE is required: code_challenge (S256, 43 characters) and code_challenge_method=S256.',
    )
  if (params.resource !== undefined && params.resource !== context.mcpResource)
    throw refuse('invalid_target', `This server issues tokens for ${context.mcpResource} only.`)
  const scopes = (params.scope ?? AGENT_SCOPE).split(' ').filter(Boolean)
  if (scopes.some((s) => s !== AGENT_SCOPE)) throw refuse('invalid_scope', `The only scope is "${AGENT_SCOPE}".`)
  const now = deps.clock.now()
  await deleteExpiredAgentAuthorizations(deps.db, new Date(now.getTime() - AGENT_OAUTH_LIFETIMES.requestMs))
  const requestToken = randomBase62(43)
  await insertAgentAuthorization(deps.db, {
    id: newId('agentAuthorization'),
    clientId: client.id,
    requestHash: await sha256Hex(requestToken),
    userId: context.userId,
    redirectUri,
    codeChallenge: params.code_challenge!,
    state: params.state ?? null,
    resource: context.mcpResource,
    scope: AGENT_SCOPE,
    expiresAt: new Date(now.getTime() + AGENT_OAUTH_LIFETIMES.requestMs),
  })
  return { requestToken, clientName: client.name, redirectUri }
}

/** The pending request behind a consent form, only for the user it was shown to. */
export async function pendingAgentAuthorization(deps: Deps, requestToken: string, userId: string) {
  const found = await findOpenAgentAuthorization(deps.db, await sha256Hex(requestToken), deps.clock.now())
  if (!found || found.authorization.userId !== userId) return null
  return found
}

/**
 * The user's decision: approved for one or more workspaces they manage (the caller checks their role
 * in each; the first is the grant's default), or denied (none). The decision and its workspaces are
 * written in one transaction. Answers the address the client is sent back to; a request decided
 * already or expired is `null`.
 */
export async function decideAgentAuthorizationRequest(
  deps: Deps,
  input: { requestToken: string; userId: string; workspaceIds: string[]; issuer: string },
): Promise<string | null> {
  const found = await pendingAgentAuthorization(deps, input.requestToken, input.userId)
  if (!found) return null
  const { authorization } = found
  const now = deps.clock.now()
  const chosen = [...new Set(input.workspaceIds)]
  const code = chosen.length > 0 ? randomBase62(43) : null
  const codeHash = code ? await sha256Hex(code) : null
  const decided = await deps.db.transaction(async (tx) => {
    const done = await decideAgentAuthorization(
      tx,
      authorization.id,
      {
        workspaceId: chosen[0] ?? null,
        codeHash,
        expiresAt: new Date(now.getTime() + AGENT_OAUTH_LIFETIMES.codeMs),
      },
      now,
    )
    if (done && chosen.length > 0) await insertAuthorizationWorkspaces(tx, authorization.id, chosen)
    return done
  })
  if (!decided) return null
  const state = authorization.state ?? undefined
  if (!code)
    return clientRedirect(authorization.redirectUri, {
      error: 'access_denied',
      error_description: 'The user did not allow access.',
      state,
      iss: input.issuer,
    })
  return clientRedirect(authorization.redirectUri, { code, state, iss: input.issuer })
}
