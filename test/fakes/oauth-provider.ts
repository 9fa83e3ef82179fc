/**
 * The OAuth 2.0 side of a network's fake, as RFC 6749 / 7636 / 7009 describe it and the networks
 * document it: an authorization endpoint that "signs in" the current identity and sends the browser
 * back to `redirect_uri` with a code (or `error=access_denied` when the owner refuses), a token
 * endpoint taking that code once (checking the client, the redirect URI and the PKCE S256
 * verifier), and a revocation endpoint. Each network's fake mounts these on its own paths.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { FakeReply, FakeRequest } from './fake-server'

export interface OAuthFakeOptions {
  client: { id: string; secret: string | null }
  /** How the client must authenticate at the token endpoint (form fields under other names: TikTok). */
  clientAuth: 'basic' | 'post' | { idField: string; secretField: string }
  /** The authorization request's name for the client id (default client_id). */
  clientIdParam?: string
  /** More fields of the token answer for this identity (an open_id...). */
  answerFields?: (identity: Identity) => Record<string, unknown>
  /** Whether a code_challenge (S256) is required. */
  pkce: boolean
  /** Seconds the access token lasts (absent: no expires_in in the answer). */
  expiresIn?: number
  /** The token answer has no `token_type` (as Threads documents it). */
  omitTokenType?: boolean
}

export interface Identity {
  id: string
  username: string
}

export interface IssuedToken {
  accessToken: string
  refreshToken: string
  identity: Identity
}

interface PendingCode {
  redirectUri: string
  challenge: string | null
  identity: Identity
  scope: string
}

export function oauthFake(options: OAuthFakeOptions, onIssue: (issued: IssuedToken) => void) {
  const codes = new Map<string, PendingCode>()
  const authorizeRequests: URLSearchParams[] = []
  const revoked: string[] = []
  let consent: 'approve' | 'deny' = 'approve'
  let identity: Identity = { id: '0', username: 'nobody' }
  let exchangeFailure: FakeReply | null = null
  let seq = 0

  const clientOk = (req: FakeRequest, form: URLSearchParams): boolean => {
    if (options.clientAuth === 'basic' && options.client.secret) {
      const expected = `Basic ${Buffer.from(`${options.client.id}:${options.client.secret}`).toString('base64')}`
      return req.headers.authorization === expected
    }
    const names =
      typeof options.clientAuth === 'object'
        ? options.clientAuth
        : { idField: 'client_id', secretField: 'client_secret' }
    return (
      form.get(names.idField) === options.client.id &&
      (options.client.secret === null || form.get(names.secretField) === options.client.secret)
    )
  }

  return {
    authorizeRequests,
    revoked,
    /** The identity the next sign-in grants. */
    signInAs: (next: Identity) => (identity = next),
    /** What the owner does on the consent page. */
    setConsent: (next: 'approve' | 'deny') => (consent = next),
    /** The next code exchange answers this instead. */
    failNextExchange: (reply: FakeReply) => (exchangeFailure = reply),
    /** GET authorize: the browser is sent back to the redirect URI, as after the owner's choice. */
    authorize(req: FakeRequest): FakeReply {
      authorizeRequests.push(req.query)
      const q = req.query
      const redirectUri = q.get('redirect_uri')
      if (q.get(options.clientIdParam ?? 'client_id') !== options.client.id || !redirectUri)
        return { status: 400, body: 'invalid client or redirect_uri' }
      const back = new URL(redirectUri)
      const state = q.get('state')
      if (consent === 'deny') {
        back.searchParams.set('error', 'access_denied')
        back.searchParams.set('error_description', 'The user denied the request')
      } else {
        const challenge = q.get('code_challenge')
        if (options.pkce && (!challenge || q.get('code_challenge_method') !== 'S256'))
          return { status: 400, body: 'code_challenge with S256 is required' }
        const code = `code-${++seq}-${randomBytes(6).toString('hex')}`
        codes.set(code, { redirectUri, challenge, identity, scope: q.get('scope') ?? '' })
        back.searchParams.set('code', code)
      }
      if (state) back.searchParams.set('state', state)
      return { status: 302, headers: { location: back.href } }
    },
    /** POST token with grant_type=authorization_code. */
    exchange(req: FakeRequest): FakeReply {
      const form = req.form()
      if (exchangeFailure) {
        const reply = exchangeFailure
        exchangeFailure = null
        return reply
      }
      if (!clientOk(req, form))
        return { status: 401, json: { error: 'invalid_client', error_description: 'Client authentication failed' } }
      const code = form.get('code') ?? ''
      const pending = codes.get(code)
      codes.delete(code)
      if (!pending || pending.redirectUri !== form.get('redirect_uri'))
        return { status: 400, json: { error: 'invalid_grant', error_description: 'The code is invalid or expired' } }
      if (pending.challenge !== null) {
        const verifier = form.get('code_verifier') ?? ''
        if (createHash('sha256').update(verifier).digest('base64url') !== pending.challenge)
          return { status: 400, json: { error: 'invalid_grant', error_description: 'PKCE verification failed' } }
      }
      const issued = {
        accessToken: `at-${randomBytes(8).toString('hex')}`,
        refreshToken: `rt-${randomBytes(8).toString('hex')}`,
        identity: pending.identity,
      }
      onIssue(issued)
      return {
        json: {
          ...(options.omitTokenType ? {} : { token_type: 'bearer' }),
          access_token: issued.accessToken,
          refresh_token: issued.refreshToken,
          scope: pending.scope,
          ...(options.expiresIn ? { expires_in: options.expiresIn } : {}),
          ...options.answerFields?.(pending.identity),
        },
      }
    },
    /** POST revoke (RFC 7009): 200 whether or not the token was known. */
    revoke(req: FakeRequest): FakeReply {
      const form = req.form()
      if (!clientOk(req, form)) return { status: 401, json: { error: 'invalid_client' } }
      revoked.push(form.get('token') ?? '')
      return { status: 200, json: {} }
    },
  }
}
