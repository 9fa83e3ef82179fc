/**
 * Connecting a community-network account: the form's instance, username (or email) and password
 * (and a two-factor code when the account has one) are sent once to `POST /api/v3/user/login`;
 * the session token it answers (a JWT) is what is stored, with who the account is, read from
 * `GET /api/v3/site` (`my_user`). The password is not kept: a session refused later makes the
 * account EXPIRED and the owner reconnects (docs/networks/community.md says why).
 */
import type { VerifiedAccount, VerifyInput } from '../../adapter'
import { credential, NetworkFailure } from '../../http'
import { type CallContext, lemmy, NETWORK } from './api'

/** What is stored for a connected account. */
export interface CommunitySession {
  instanceUrl: string
  /** The person's local name (the user page and the reconciliation read use it). */
  username: string
  jwt: string
  personId: number
}

export function sessionOf(credentials: Record<string, unknown>): CommunitySession {
  const personId = Number(credentials.personId)
  if (!Number.isInteger(personId))
    throw new NetworkFailure('rejected', `${NETWORK}: the account's credentials lack personId: reconnect the account.`)
  return {
    instanceUrl: credential(credentials, 'instanceUrl'),
    username: credential(credentials, 'username'),
    jwt: credential(credentials, 'jwt'),
    personId,
  }
}

/** The person a session belongs to, from the site answer; a session the instance ignores is refused. */
async function whoAmI(ctx: CallContext): Promise<{ id: number; name: string; actorId: string }> {
  const site = await lemmy(ctx, 'site')
  const person = site?.my_user?.local_user_view?.person
  // The instance ignores a token it does not know (it answers as to a visitor, without my_user).
  if (!person || typeof person.id !== 'number' || typeof person.name !== 'string')
    throw new NetworkFailure('auth_expired', `${NETWORK}: the instance did not accept the session.`)
  return { id: person.id, name: person.name, actorId: typeof person.actor_id === 'string' ? person.actor_id : '' }
}

export async function verifyLogin(input: VerifyInput): Promise<VerifiedAccount> {
  const { credentials } = input
  const base = { fetch: input.fetch, baseUrl: input.baseUrl, now: input.now }
  const totp = typeof credentials.totpToken === 'string' && credentials.totpToken ? credentials.totpToken : undefined
  const login = await lemmy({ ...base, jwt: null }, 'user/login', {
    method: 'POST',
    json: {
      username_or_email: credential(credentials, 'username'),
      password: credential(credentials, 'password'),
      ...(totp ? { totp_2fa_token: totp } : {}),
    },
  })
  if (typeof login?.jwt !== 'string' || !login.jwt) {
    // No token: the instance wants the email verified or the registration approved first.
    const why = login?.verify_email_sent
      ? 'verify the email address the instance wrote to, then connect again'
      : 'the instance has not approved this account yet'
    throw new NetworkFailure('rejected', `${NETWORK}: no session was opened: ${why}.`)
  }
  const person = await whoAmI({ ...base, jwt: login.jwt })
  const host = new URL(input.baseUrl).host
  const session: CommunitySession = {
    instanceUrl: String(credentials.instanceUrl),
    username: person.name,
    jwt: login.jwt,
    personId: person.id,
  }
  return {
    username: `${person.name}@${host}`,
    // The person's ActivityPub id is unique across instances (a numeric id is only unique on one).
    externalId: person.actorId || `${input.baseUrl.replace(/\/+$/, '')}/u/${person.name}`,
    credentials: { ...session },
  }
}
