/** Workspace name and time zone (owners and admins change them), and the plan with its usage. */
import type { Context, Hono } from 'hono'
import { AppError } from '../../domain/errors'
import { canManage } from '../../domain/people'
import type { Caller } from '../../services/caller'
import { updateWorkspaceSettings } from '../../services/workspace-settings'
import { getWorkspaceOverview, type WorkspaceOverview } from '../../services/workspaces'
import type { DashboardEnv } from '../env'
import { workspacePage } from '../env'
import { Csrf, Field, Message } from '../pages'
import { formFields } from '../session'
import { permitted, refuseUnlessManager } from '../workspace'
import { SettingsPage } from './frame'

const cap = (n: number) => (n < 0 ? 'unlimited' : String(n))

function PlanTable(props: { overview: WorkspaceOverview }) {
  const { plan, usage } = props.overview
  return (
    <table>
      <caption>Plan: {plan.name}</caption>
      <thead>
        <tr>
          <th scope="col">What</th>
          <th scope="col">Used</th>
          <th scope="col">Plan allows</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">Seats (members)</th>
          <td>{usage.seats}</td>
          <td>{cap(plan.limits.seats)}</td>
        </tr>
        <tr>
          <th scope="row">Connected accounts</th>
          <td>{usage.socialAccounts}</td>
          <td>{cap(plan.limits.socialAccounts)}</td>
        </tr>
        <tr>
          <th scope="row">Posts this month</th>
          <td>{usage.postsThisMonth}</td>
          <td>{cap(plan.limits.monthlyPosts)}</td>
        </tr>
      </tbody>
    </table>
  )
}

/** The signed-in member as the caller of a service (the activity log names them). */
function memberCaller(c: Context<DashboardEnv>): Caller {
  const { member, clientIp } = c.var
  return {
    workspaceId: member.workspaceId,
    access: { role: member.role, groupIds: null },
    actor: { kind: 'user', id: member.userId, name: member.name },
    userId: member.userId,
    ip: clientIp ?? null,
  }
}

/** Registers `/settings` (GET, POST): the same service as `PATCH /v1/workspace`. */
export function registerWorkspaceSettings(app: Hono<DashboardEnv>): void {
  const render = async (
    c: Context<DashboardEnv>,
    state: { notice?: string; errors?: Record<string, string>; values?: { name: string; timezone: string } } = {},
    status: 200 | 400 = 200,
  ) => {
    const { member, csrfToken, deps } = c.var
    const overview = await getWorkspaceOverview(deps.db, member.workspaceId, deps.clock.now())
    const values = state.values ?? { name: overview.name, timezone: overview.timezone }
    const errors = state.errors ?? {}
    return c.html(
      <SettingsPage title="Workspace settings" section="" member={member} csrfToken={csrfToken}>
        <Message kind="notice" text={state.notice} />
        {canManage(member.role) ? (
          <form method="post" action={workspacePage(member, '/settings')}>
            <Csrf token={csrfToken} />
            <Field name="name" label="Workspace name" value={values.name} error={errors.name} />
            <Field
              name="timezone"
              label="Time zone (IANA name, e.g. Europe/Berlin)"
              value={values.timezone}
              error={errors.timezone}
            />
            <button type="submit">Save</button>
          </form>
        ) : (
          <dl>
            <dt>Workspace name</dt>
            <dd>{overview.name}</dd>
            <dt>Time zone</dt>
            <dd>{overview.timezone}</dd>
          </dl>
        )}
        <h2>Plan and usage</h2>
        <PlanTable overview={overview} />
      </SettingsPage>,
      status,
    )
  }

  app.get('/settings', permitted('write'), (c) => render(c))

  app.post('/settings', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const fields = await formFields(c)
    const values = { name: fields.name ?? '', timezone: (fields.timezone ?? '').trim() }
    try {
      await updateWorkspaceSettings(c.var.deps, memberCaller(c), values)
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'invalid_request') throw err
      const path = err.details?.[0]?.path ?? 'name'
      return render(c, { errors: { [path]: err.message }, values }, 400)
    }
    c.var.member.workspaceName = values.name.trim()
    c.var.member.timeZone = values.timezone
    return render(c, { notice: 'Saved.' })
  })
}
