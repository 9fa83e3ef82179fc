/**
 * A workspace's own settings (`GET/PATCH /v1/workspace`, the dashboard's settings page, MCP):
 * its name, its time zone and whether every post needs approval.
 */
import {
  selectWorkspaceSettings,
  updateWorkspaceSettingsRow,
  type WorkspaceSettingsRow,
} from '../../db/queries/approval'
import type { Deps } from '../../deps'
import { AppError, notFound } from '../../domain/errors'
import { isValidTimeZone } from '../../lib/timezone'
import { recordActivity } from '../activity/record'
import type { Caller } from '../caller'

export interface WorkspaceSettings {
  id: string
  name: string
  timezone: string
  approvalRequired: boolean
  plan: string
}

export interface WorkspaceSettingsInput {
  name?: string
  timezone?: string
  approvalRequired?: boolean
}

const toSettings = (row: WorkspaceSettingsRow): WorkspaceSettings => ({
  id: row.id,
  name: row.name,
  timezone: row.timezone,
  approvalRequired: row.approvalRequired,
  plan: row.planId,
})

export async function getWorkspaceSettings(db: Deps['db'], workspaceId: string): Promise<WorkspaceSettings> {
  const row = await selectWorkspaceSettings(db, workspaceId)
  if (!row) throw notFound('Workspace')
  return toSettings(row)
}

/** The input checked: a name of 1 to 100 characters (trimmed), an IANA time zone. 400 naming the field. */
function checked(input: WorkspaceSettingsInput): WorkspaceSettingsInput {
  const out: WorkspaceSettingsInput = {}
  if (input.name !== undefined) {
    const name = input.name.trim()
    if (name.length < 1 || name.length > 100) {
      throw new AppError('invalid_request', 'Enter a workspace name (at most 100 characters).', {
        details: [{ path: 'name' }],
      })
    }
    out.name = name
  }
  if (input.timezone !== undefined) {
    const timezone = input.timezone.trim()
    if (!isValidTimeZone(timezone)) {
      throw new AppError(
        'invalid_request',
        `Unknown time zone "${timezone}"; use an IANA name such as Europe/Berlin.`,
        {
          details: [{ path: 'timezone' }],
        },
      )
    }
    out.timezone = timezone
  }
  if (input.approvalRequired !== undefined) out.approvalRequired = input.approvalRequired
  return out
}

const describe = (changes: WorkspaceSettingsInput) =>
  [
    changes.name !== undefined ? `name "${changes.name}"` : null,
    changes.timezone !== undefined ? `time zone ${changes.timezone}` : null,
    changes.approvalRequired !== undefined
      ? `approval ${changes.approvalRequired ? 'required' : 'not required'}`
      : null,
  ]
    .filter(Boolean)
    .join(', ')

/**
 * Changes the settings given, recording what changed in the activity log in the same transaction.
 * Turning approval on stops nothing already scheduled; those posts need approval only to be
 * rescheduled or published again (docs/decisions.md, "Approvals").
 */
export async function updateWorkspaceSettings(
  deps: Pick<Deps, 'db' | 'clock'>,
  caller: Caller,
  input: WorkspaceSettingsInput,
): Promise<WorkspaceSettings> {
  const changes = checked(input)
  return deps.db.transaction(async (tx) => {
    const before = await selectWorkspaceSettings(tx, caller.workspaceId)
    if (!before) throw notFound('Workspace')
    await updateWorkspaceSettingsRow(tx, caller.workspaceId, changes)
    if (Object.keys(changes).length > 0) {
      await recordActivity(tx, {
        workspaceId: caller.workspaceId,
        actor: caller.actor,
        ip: caller.ip,
        action: 'workspace.updated',
        subject: { type: 'workspace', id: caller.workspaceId },
        summary: `${caller.actor.name} changed the workspace settings: ${describe(changes)}.`,
        details: { before: toSettings(before), changes },
        now: deps.clock.now(),
      })
    }
    return toSettings({ ...before, ...changes })
  })
}
