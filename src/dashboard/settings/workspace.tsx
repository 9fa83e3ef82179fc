/**
 * The workspace's settings: its name and time zone, whether posts need an approval before they go
 * out (owners and admins change them, through the service of `PATCH /v1/workspace`), and the plan with
 * its usage.
 */
import type { Context, Hono } from 'hono'
import { AppError } from '../../domain/errors'
import { canManage } from '../../domain/people'
import { getWorkspaceOverview, type WorkspaceOverview } from '../../services/workspace/workspaces'
import { getWorkspaceSettings, updateWorkspaceSettings } from '../../services/workspace/settings'
import type { DashboardEnv } from '../env'
import { workspacePage } from '../env'
import { Csrf, Field, Message } from '../pages'
import { formFields } from '../session'
import { refuseUnlessManager } from '../workspace'
import { dashboardCaller } from '../caller'
import { refuseReviewer, SettingsPage } from './frame'
import { Setting, Switch } from './parts'

/** "20 of 25", or "20, no limit" when the plan sets none. */
const usedOf = (used: number, allowed: number) => (allowed < 0 ? `${used}, no limit` : `${used} of ${allowed}`)

/** The zones the runtime knows, the current one included even when the list lacks it ("UTC"). */
function timeZones(current: string): string[] {
  let zones: string[] = []
  try {
    zones = Intl.supportedValuesOf('timeZone')
  } catch {
    zones = []
  }
  return zones.includes(current) ? zones : [current, ...zones]
}

function Usage(props: { overview: WorkspaceOverview }) {
  const { plan, usage } = props.overview
  const lines: Array<[string, number, number]> = [
    ['Seats', usage.seats, plan.limits.seats],
    ['Connected accounts', usage.socialAccounts, plan.limits.socialAccounts],
    ['Posts this month', usage.postsThisMonth, plan.limits.monthlyPosts],
  ]
  return (
    <ul class="usage">
      {lines.map(([what, used, allowed]) => (
        <li>
          <div class="usage-line">
            <strong>{what}</strong>
            <span>{usedOf(used, allowed)}</span>
          </div>
          {allowed >= 0 ? (
            <progress
              max={Math.max(allowed, 1)}
              value={Math.min(used, allowed)}
              aria-label={`${what}: ${used} of ${allowed}`}
            />
          ) : null}
        </li>
      ))}
    </ul>
  )
}

/** What turning approval on changes, in three steps. */
function ApprovalSteps() {
  return (
    <ol class="explain">
      <li>
        <span class="step">1</span>
        <span>
          <strong>Posts wait for a yes.</strong> Scheduling, queueing or publishing a post is refused until it was
          submitted for review and approved.
        </span>
      </li>
      <li>
        <span class="step">2</span>
        <span>
          <strong>Reviewers decide.</strong> Owners, admins and reviewers approve or ask for changes with a comment; the
          author is told either way.
        </span>
      </li>
      <li>
        <span class="step">3</span>
        <span>
          <strong>Edits start over.</strong> Changing a post in review or approved sends it back to draft. Groups can
          ask for approval on their own too.
        </span>
      </li>
    </ol>
  )
}

type State = {
  notice?: string
  error?: string
  errors?: Record<string, string>
  values?: { name: string; timezone: string }
}

/** Registers `/settings` (GET, POST) and `/settings/approval` (POST). */
export function registerWorkspaceSettings(app: Hono<DashboardEnv>): void {
  const render = async (c: Context<DashboardEnv>, state: State = {}, status: 200 | 400 = 200) => {
    const { member, csrfToken, deps } = c.var
    const [overview, settings] = await Promise.all([
      getWorkspaceOverview(deps.db, member.workspaceId, deps.clock.now()),
      getWorkspaceSettings(deps.db, member.workspaceId),
    ])
    const values = state.values ?? { name: overview.name, timezone: overview.timezone }
    const errors = state.errors ?? {}
    const manager = canManage(member.role)
    return c.html(
      <SettingsPage
        title="Workspace"
        section=""
        member={member}
        csrfToken={csrfToken}
        description="Its name, its clock, how posts get approved, and what the plan allows."
      >
        <Message kind="notice" text={state.notice} />
        <Message kind="error" text={state.error} />
        {manager ? (
          <form
            method="post"
            action={workspacePage(member, '/settings')}
            class="setting"
            aria-labelledby="general-title"
          >
            <div class="setting-head">
              <h2 id="general-title">General</h2>
              <p>Every time on the calendar, in the composer and in the queue is shown in this zone.</p>
            </div>
            <div class="setting-body form-grid">
              <Csrf token={csrfToken} />
              <div>
                <Field name="name" label="Workspace name" value={values.name} error={errors.name} />
              </div>
              <div>
                <label for="f-timezone">Time zone</label>
                <select
                  id="f-timezone"
                  name="timezone"
                  aria-invalid={errors.timezone ? 'true' : undefined}
                  aria-describedby={errors.timezone ? 'f-timezone-error' : undefined}
                >
                  {timeZones(values.timezone).map((z) => (
                    <option value={z} selected={z === values.timezone}>
                      {z.replaceAll('_', ' ')}
                    </option>
                  ))}
                </select>
                {errors.timezone ? (
                  <p id="f-timezone-error" class="error">
                    {errors.timezone}
                  </p>
                ) : null}
              </div>
            </div>
            <div class="setting-foot">
              <button type="submit">Save</button>
            </div>
          </form>
        ) : (
          <Setting title="General">
            <dl class="facts">
              <div>
                <dt>Workspace name</dt>
                <dd>{overview.name}</dd>
              </div>
              <div>
                <dt>Time zone</dt>
                <dd>{overview.timezone}</dd>
              </div>
            </dl>
          </Setting>
        )}
        <form
          method="post"
          action={workspacePage(member, '/settings/approval')}
          class="setting"
          aria-labelledby="approval-title"
        >
          <div class="setting-head">
            <h2 id="approval-title">Approvals</h2>
            <p>For agencies and teams whose clients or leads sign off on every post.</p>
          </div>
          <div class="setting-body">
            <Csrf token={csrfToken} />
            {manager ? (
              <Switch
                id="approval-required"
                name="approvalRequired"
                title="Require approval before posts go out"
                help={
                  settings.approvalRequired
                    ? 'On: every post of this workspace needs an approval.'
                    : 'Off: anyone who may publish publishes; a review can still be asked for.'
                }
                checked={settings.approvalRequired}
              />
            ) : (
              <p class="switch-state">
                Approval before posts go out: {settings.approvalRequired ? 'required' : 'not required'}
              </p>
            )}
            <ApprovalSteps />
          </div>
          {manager ? (
            <div class="setting-foot">
              <p class="muted">Groups can require approval for their accounts alone (Settings, Groups).</p>
              <button type="submit" class="secondary">
                Save approvals
              </button>
            </div>
          ) : null}
        </form>
        <Setting
          title={<span class="plan-name">Plan: {overview.plan.name}</span>}
          description="What this workspace uses of what its plan allows."
        >
          <Usage overview={overview} />
        </Setting>
      </SettingsPage>,
      status,
    )
  }

  app.get('/settings', (c) => refuseReviewer(c) ?? render(c))

  app.post('/settings', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const fields = await formFields(c)
    const values = { name: fields.name ?? '', timezone: (fields.timezone ?? '').trim() }
    try {
      await updateWorkspaceSettings(c.var.deps, dashboardCaller(c), { name: values.name, timezone: values.timezone })
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'invalid_request') throw err
      const path = err.details?.[0]?.path ?? 'name'
      return render(c, { errors: { [path]: err.message }, values }, 400)
    }
    c.var.member.workspaceName = values.name.trim()
    c.var.member.timeZone = values.timezone
    return render(c, { notice: 'Saved.' })
  })

  app.post('/settings/approval', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const on = (await formFields(c)).approvalRequired === 'on'
    await updateWorkspaceSettings(c.var.deps, dashboardCaller(c), { approvalRequired: on })
    return render(c, {
      notice: on
        ? 'Approval is now required: posts go out only once approved.'
        : 'Approval is no longer required for the whole workspace.',
    })
  })
}
