/** The dashboard's people: roles in a workspace and what each may do. */
export const MEMBER_ROLES = ['owner', 'admin', 'member', 'reviewer'] as const

/**
 * What a member may do in a workspace: owners and admins manage members, tokens, webhooks and settings;
 * members write and publish; reviewers read, comment and review (domain/access.ts `ROLE_PERMISSIONS`).
 */
export type MemberRole = (typeof MEMBER_ROLES)[number]

/** Whether the role manages the workspace (members, invitations, tokens, webhooks, settings). */
export const canManage = (role: MemberRole): boolean => role === 'owner' || role === 'admin'

export const isMemberRole = (value: string): value is MemberRole => (MEMBER_ROLES as readonly string[]).includes(value)

/** An email as it is compared: trimmed and lower-cased (the unique index is on lower(email)). */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase()

/** A plausible address: something@something.tld, no spaces, at most 254 characters. */
export const isPlausibleEmail = (email: string): boolean =>
  email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)
