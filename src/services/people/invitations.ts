/**
 * Invitations by link: the inviter is shown a link once (no mail server); only the SHA-256 of its token
 * is stored. A link is used at most once, expires, and takes a seat only when accepted (under the
 * workspace lock, so the plan's `seats` cap holds).
 */
import {
  findInvitationByHash,
  insertInvitation,
  markInvitationAccepted,
  revokeInvitationRow,
  selectWorkspaceInvitations,
} from '../../db/queries/invitations'
import type { Db, DbOrTx } from '../../db/types'
import { AppError } from '../../domain/errors'
import type { MemberRole } from '../../domain/people'
import { sha256Hex } from '../../lib/crypto'
import { newId, randomBase62 } from '../../lib/ids'
import { addMember, assertFreeSeat, memberName } from './memberships'
import { recordAdminActivity } from '../activity/admin'
import { callerOfScope, type WorkspaceScope } from '../activity/scope'
import type { Caller } from '../caller'

/** How long an invitation link stays valid. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000

export interface CreatedInvitation {
  id: string
  /** The link's token: shown to the inviter once, never stored. */
  token: string
  role: MemberRole
  expiresAt: string
}

/** A new invitation for the role; 403 `plan_limit_reached` when no seat is free now. */
export async function createInvitation(
  db: Db,
  input: { workspaceId: string; role: MemberRole; invitedBy: string; now: Date; caller?: Caller },
): Promise<CreatedInvitation> {
  const token = randomBase62(43)
  const id = newId('invitation')
  const expiresAt = new Date(input.now.getTime() + INVITATION_TTL_MS)
  await db.transaction(async (tx) => {
    await assertFreeSeat(tx, input.workspaceId)
    await insertInvitation(tx, {
      id,
      workspaceId: input.workspaceId,
      tokenHash: await sha256Hex(token),
      role: input.role,
      invitedBy: input.invitedBy,
      expiresAt,
    })
    await recordAdminActivity(tx, callerOfScope(input.caller ?? input.workspaceId), {
      action: 'member.invited',
      subject: { type: 'invitation', id },
      words: `invited someone to join as ${input.role} (invitation ${id})`,
      details: { role: input.role, expiresAt: expiresAt.toISOString() },
      now: input.now,
    })
  })
  return { id, token, role: input.role, expiresAt: expiresAt.toISOString() }
}

/** What an invitation link is now: usable, or why not. */
export type InvitationState =
  | { state: 'valid'; id: string; workspaceId: string; workspaceName: string; role: MemberRole; expiresAt: Date }
  | { state: 'used' | 'expired' | 'revoked' | 'unknown' }

/** The state of the invitation behind a link's token. */
export async function inspectInvitation(db: DbOrTx, token: string, now: Date): Promise<InvitationState> {
  if (!/^[0-9A-Za-z]{43}$/.test(token)) return { state: 'unknown' }
  const row = await findInvitationByHash(db, await sha256Hex(token))
  if (!row) return { state: 'unknown' }
  if (row.acceptedAt) return { state: 'used' }
  if (row.revokedAt) return { state: 'revoked' }
  if (row.expiresAt.getTime() <= now.getTime()) return { state: 'expired' }
  const { id, workspaceId, workspaceName, role, expiresAt } = row
  return { state: 'valid', id, workspaceId, workspaceName, role, expiresAt }
}

const INVALID_MESSAGES = {
  used: 'This invitation has already been used.',
  expired: 'This invitation has expired; ask for a new one.',
  revoked: 'This invitation was withdrawn; ask for a new one.',
  unknown: 'This invitation link is not valid.',
} as const

/** The sentence a page shows for an invitation that cannot be used. */
export const invitationProblem = (state: keyof typeof INVALID_MESSAGES): string => INVALID_MESSAGES[state]

/**
 * Accepts the invitation for the user: one transaction marks it used and adds the member (if a seat
 * is free). 400 when used, expired or withdrawn; 403 `plan_limit_reached` when the seats are taken.
 */
export async function acceptInvitation(
  db: DbOrTx,
  token: string,
  userId: string,
  now: Date,
  options: { ip?: string | null } = {},
): Promise<{ workspaceId: string }> {
  const found = await inspectInvitation(db, token, now)
  if (found.state !== 'valid') throw new AppError('invalid_request', invitationProblem(found.state))
  await db.transaction(async (tx) => {
    await addMember(tx, found.workspaceId, userId, found.role)
    if (!(await markInvitationAccepted(tx, found.id, userId, now)))
      throw new AppError('invalid_request', invitationProblem('used'))
    const name = await memberName(tx, userId)
    const joiner: Caller = {
      workspaceId: found.workspaceId,
      access: { role: found.role, groupIds: null },
      actor: { kind: 'user', id: userId, name },
      userId,
      ip: options.ip ?? null,
    }
    await recordAdminActivity(tx, joiner, {
      action: 'member.joined',
      subject: { type: 'member', id: userId },
      words: `joined the workspace as ${found.role} (invitation ${found.id})`,
      details: { role: found.role, invitationId: found.id },
      now,
    })
  })
  return { workspaceId: found.workspaceId }
}

export interface InvitationView {
  id: string
  role: MemberRole
  state: 'pending' | 'accepted' | 'expired' | 'revoked'
  createdAt: string
  expiresAt: string
}

/** The workspace's invitations, newest first, with their state (never a token). */
export async function listInvitations(db: Db, workspaceId: string, now: Date): Promise<InvitationView[]> {
  const rows = await selectWorkspaceInvitations(db, workspaceId)
  return rows.map((r) => ({
    id: r.id,
    role: r.role,
    state: r.acceptedAt
      ? 'accepted'
      : r.revokedAt
        ? 'revoked'
        : r.expiresAt.getTime() <= now.getTime()
          ? 'expired'
          : 'pending',
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
  }))
}

/** Withdraws a pending invitation of the workspace; 404 when there is none with that id. */
export async function revokeInvitation(db: Db, scope: WorkspaceScope, id: string, now: Date): Promise<void> {
  const caller = callerOfScope(scope)
  await db.transaction(async (tx) => {
    if (!(await revokeInvitationRow(tx, caller.workspaceId, id, now)))
      throw new AppError('not_found', 'Invitation not found.')
    await recordAdminActivity(tx, caller, {
      action: 'member.invitation_revoked',
      subject: { type: 'invitation', id },
      words: `withdrew the invitation ${id}`,
      now,
    })
  })
}
