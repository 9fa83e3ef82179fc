/**
 * Labels for posts (campaigns, themes): list, create, rename, recolour, delete, through the services
 * of `/v1/labels`. Whoever may write posts manages labels (owners, admins, members).
 */
import type { Context, Hono } from 'hono'
import { can } from '../../domain/access'
import { dashboardCaller } from '../caller'
import { createLabel, deleteLabel, listLabels, updateLabel } from '../../services/labels/labels'
import type { DashboardEnv } from '../env'
import { workspacePage } from '../env'
import { Csrf, Message } from '../pages'
import { back, Notice, orNotFound } from '../pages/shared'
import { forbiddenPage } from '../pages'
import { EmptyState } from '../ui'
import { refuseReviewer, SettingsPage } from './frame'
import { ConfirmDelete, Dot, parseColor, saveThenBack, Swatches } from './parts'

const path = (c: Context<DashboardEnv>, p = '') => workspacePage(c.var.member, `/settings/labels${p}`)

/** Refuses (403 page) a role that does not write posts. */
function refuseUnlessWriter(c: Context<DashboardEnv>): Response | null {
  if (can(c.var.member.role, 'write')) return null
  return forbiddenPage(c, 'Only those who write posts (owners, admins, members) manage labels.') as unknown as Response
}

async function readValues(c: Context<DashboardEnv>) {
  const body = await c.req.parseBody()
  return {
    name: typeof body.name === 'string' ? body.name.trim() : '',
    color: parseColor(typeof body.color === 'string' ? body.color : undefined) ?? '#64748b',
  }
}

async function render(
  c: Context<DashboardEnv>,
  state: { error?: string; values?: { name: string; color: string } } = {},
  status: 200 | 400 | 409 = 200,
) {
  const { member, csrfToken, deps } = c.var
  const labels = await listLabels(deps.db, member.workspaceId)
  return c.html(
    <SettingsPage
      title="Labels"
      section="/labels"
      member={member}
      csrfToken={csrfToken}
      managersOnly={false}
      description="Tag posts by campaign or theme, then filter the calendar, lists and analytics by label."
    >
      <Notice c={c} />
      <Message kind="error" text={state.error} />
      <form method="post" action={path(c)} class="setting" aria-labelledby="new-label-title">
        <div class="setting-head">
          <h2 id="new-label-title">New label</h2>
        </div>
        <div class="setting-body">
          <Csrf token={csrfToken} />
          <label for="label-name">Name</label>
          <input
            id="label-name"
            name="name"
            type="text"
            required
            maxlength={60}
            value={state.values?.name ?? ''}
            placeholder="Spring launch"
          />
          <Swatches name="color" value={state.values?.color ?? null} idPrefix="new-label" />
        </div>
        <div class="setting-foot">
          <button type="submit">Create label</button>
        </div>
      </form>
      {labels.length === 0 ? (
        <EmptyState title="No label yet">Create one above; the composer offers them on every post.</EmptyState>
      ) : (
        <ul class="label-list" aria-label="Labels">
          {labels.map((l) => (
            <li class="label-row" id={`label-${l.id}`}>
              <span class="label-chip">
                <Dot color={l.color} large />
                {l.name}
              </span>
              <details class="edit">
                <summary aria-label={`Edit ${l.name}`}>Edit</summary>
                <form method="post" action={path(c, `/${l.id}`)}>
                  <Csrf token={csrfToken} />
                  <label for={`label-${l.id}-name`}>Name</label>
                  <input id={`label-${l.id}-name`} name="name" type="text" required maxlength={60} value={l.name} />
                  <Swatches name="color" value={l.color} idPrefix={`label-${l.id}`} />
                  <button type="submit" class="secondary">
                    Save label
                  </button>
                </form>
              </details>
              <ConfirmDelete
                action={path(c, `/${l.id}/delete`)}
                csrfToken={csrfToken}
                what="label"
                label={`Delete ${l.name}`}
              >
                Remove “{l.name}” from every post?
              </ConfirmDelete>
            </li>
          ))}
        </ul>
      )}
    </SettingsPage>,
    status,
  )
}

/** The refusals of the labels service the page shows with its message; anything else goes on. */
const FIXABLE = ['invalid_request', 'name_taken']

/** Registers `/settings/labels` and its actions. */
export function registerLabelPages(app: Hono<DashboardEnv>): void {
  app.get('/settings/labels', (c) => refuseReviewer(c) ?? render(c))

  app.post('/settings/labels', async (c) => {
    const stop = refuseUnlessWriter(c)
    if (stop) return stop
    const values = await readValues(c)
    return saveThenBack(c, {
      save: () => createLabel(c.var.deps, dashboardCaller(c), values),
      list: path(c),
      saved: (label) => `Label “${label.name}” created.`,
      fixable: FIXABLE,
      showAgain: (r) => render(c, { error: r.message, values }, r.status),
    })
  })

  app.post('/settings/labels/:labelId', (c) =>
    orNotFound(c, async () => {
      const stop = refuseUnlessWriter(c)
      if (stop) return stop
      const values = await readValues(c)
      return saveThenBack(c, {
        save: () => updateLabel(c.var.deps, dashboardCaller(c), c.req.param('labelId'), values),
        list: path(c),
        saved: (label) => `Label “${label.name}” saved.`,
        fixable: FIXABLE,
        showAgain: (r) => render(c, { error: r.message }, r.status),
      })
    }),
  )

  app.post('/settings/labels/:labelId/delete', (c) =>
    orNotFound(c, async () => {
      const stop = refuseUnlessWriter(c)
      if (stop) return stop
      await deleteLabel(c.var.deps, dashboardCaller(c), c.req.param('labelId'))
      return back(c, path(c), { notice: 'Label deleted.' })
    }),
  )
}
