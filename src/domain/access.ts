import type { MemberRole } from './people'

/** What a caller may do in a workspace, one word each (the role decides which: `ROLE_PERMISSIONS`). */
export const PERMISSIONS = ['read', 'comment', 'write', 'publish', 'review', 'connect', 'manage'] as const

export type Permission = (typeof PERMISSIONS)[number]

/**
 * Which permissions each role has. read: see; comment: post notes; write: create, edit and delete
 * posts, media and labels, submit for review; publish: schedule, queue, publish, retry; review: approve
 * or request changes; connect: connect and disconnect accounts; manage: workspace settings, members,
 * tokens, webhooks, groups, review links and the activity log.
 */
export const ROLE_PERMISSIONS: Record<MemberRole, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS,
  member: ['read', 'comment', 'write', 'publish', 'connect'],
  reviewer: ['read', 'comment', 'review'],
}

export const can = (role: MemberRole, permission: Permission): boolean => ROLE_PERMISSIONS[role].includes(permission)

/** What a permission lets one do, in words: "Your role (reviewer) cannot <verb>." */
export const PERMISSION_VERBS: Record<Permission, string> = {
  read: 'see this workspace',
  comment: 'comment on posts',
  write: 'create or change posts',
  publish: 'schedule or publish posts',
  review: 'review posts',
  connect: 'connect or disconnect accounts',
  manage: 'manage this workspace',
}

/** The sentence of a refused permission. */
export const forbiddenMessage = (role: MemberRole, permission: Permission): string =>
  `Your role (${role}) cannot ${PERMISSION_VERBS[permission]}.`

/**
 * What a caller may reach: its role, and the account groups it is limited to (null: the whole
 * workspace; owners and admins always null).
 */
export interface Access {
  role: MemberRole
  groupIds: readonly string[] | null
}

/** The access of an owner over the whole workspace (the service itself, tokens made before roles). */
export const FULL_ACCESS: Access = { role: 'owner', groupIds: null }

/** Who did something: a dashboard user, an API token, an agent's grant, a review link, or the service. */
export const ACTOR_KINDS = ['user', 'token', 'agent', 'review_link', 'system'] as const

export type ActorKind = (typeof ACTOR_KINDS)[number]

/**
 * One actor as the activity log, notes and approvals name it. user: user id and name; token: token id
 * and name; agent: api token id and "<client name> for <user name>"; review_link: link id and
 * "<visitor's name> (review link)"; system: null and "Service".
 */
export interface ActorRef {
  kind: ActorKind
  id: string | null
  name: string
}

/** The service itself as an actor (scheduled work, retries). */
export const SYSTEM_ACTOR: ActorRef = { kind: 'system', id: null, name: 'Service' }
