import type { AppEnv } from '../http/context'

import type { MemberRole } from '../domain/people'

export type { MemberRole }

/** The signed-in user as a member of the workspace the page is about (checked server-side on every request). */
export interface DashboardMember {
  userId: string
  email: string
  name: string
  workspaceId: string
  workspaceName: string
  /** The workspace time zone (IANA), the zone every date on a page is shown in. */
  timeZone: string
  role: MemberRole
  /** The account groups the member is limited to; null: the whole workspace (owners and admins always). */
  groupIds: string[] | null
  /** Every workspace the user belongs to (the layout's switcher); absent where a page is rendered alone. */
  workspaces?: Array<{ workspaceId: string; name: string }>
  /** Comments and mentions not read yet (the navigation's Inbox badge); absent where a page is rendered alone. */
  unreadInbox?: number
}

/** Hono environment of every dashboard page: the API's variables, the member, and the session's CSRF token. */
export interface DashboardEnv {
  Variables: AppEnv['Variables'] & {
    member: DashboardMember
    /** Every state-changing form carries it as `_csrf`, every script request as `X-CSRF-Token`. */
    csrfToken: string
  }
}

/** The address of a page of the member's workspace: every workspace page lives under `/app/w/{workspaceId}`. */
export const workspacePage = (member: Pick<DashboardMember, 'workspaceId'>, path = ''): string =>
  `/app/w/${member.workspaceId}${path}`
