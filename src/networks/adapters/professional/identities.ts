/**
 * Whom a hosted sign-in of the professional network can post as: the member themself
 * (`/v2/userinfo`), and each organisation where the member's role is ADMINISTRATOR, approved
 * (`/rest/organizationAcls?q=roleAssignee`, then each one's name from `/rest/organizations/{id}`).
 * Every identity shares the member's token, with its own `authorUrn`. Followed:
 * https://learn.microsoft.com/linkedin/marketing/community-management/organizations/organization-access-control-by-role
 */
import type { VerifiedAccount, VerifyInput } from '../../adapter'
import { NetworkFailure } from '../../http'
import { call, NETWORK, type Session } from './api'

/** Organisations read at most from the access-control list. */
export const ORGANIZATIONS_LISTED_MAX = 100

export async function listProfessionalIdentities(session: Session, input: VerifyInput): Promise<VerifiedAccount[]> {
  const me = (await call(session, 'GET', '/v2/userinfo')).body ?? {}
  if (typeof me.sub !== 'string' || !me.sub)
    throw new NetworkFailure('rejected', `${NETWORK}: the token names no member.`)
  const member = `urn:li:person:${me.sub}`
  const identities: VerifiedAccount[] = [
    {
      username: typeof me.name === 'string' && me.name ? me.name : me.sub,
      externalId: member,
      credentials: { ...input.credentials, authorUrn: member },
    },
  ]
  const query = `q=roleAssignee&role=ADMINISTRATOR&state=APPROVED&count=${ORGANIZATIONS_LISTED_MAX}`
  const acls = (await call(session, 'GET', `/rest/organizationAcls?${query}`)).body ?? {}
  const organizations = new Set<string>()
  for (const acl of (acls.elements ?? []) as Array<Record<string, unknown>>) {
    if (acl.role !== 'ADMINISTRATOR' || acl.state !== 'APPROVED') continue
    const urn = typeof acl.organization === 'string' ? acl.organization : acl.organizationTarget
    if (typeof urn === 'string' && /^urn:li:organization:\d+$/.test(urn)) organizations.add(urn)
  }
  for (const urn of organizations) {
    const id = urn.slice('urn:li:organization:'.length)
    const org = (await call(session, 'GET', `/rest/organizations/${id}`)).body ?? {}
    identities.push({
      username: typeof org.localizedName === 'string' && org.localizedName ? org.localizedName : id,
      externalId: urn,
      credentials: { ...input.credentials, authorUrn: urn },
    })
  }
  return identities
}
