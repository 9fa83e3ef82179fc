/** Webhook endpoints (list, create with the secret shown once, delete), their recent deliveries, and replay. */
import type { Context, Hono } from 'hono'
import { AppError } from '../../domain/errors'
import { canManage } from '../../domain/people'
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../domain/webhooks/events'
import { createEndpoint, deleteEndpoint, listEndpoints } from '../../services/webhooks/endpoints'
import { listDeliveries, replayEvent } from '../../services/webhooks/log'
import type { DashboardEnv } from '../env'
import { workspacePage } from '../env'
import { Csrf, Field, Message } from '../pages'
import { dashboardCaller } from '../caller'
import { refuseUnlessManager } from '../workspace'
import { refuseReviewer, SettingsPage } from './frame'
import { ActionButton, ListTable } from './parts'

async function render(
  c: Context<DashboardEnv>,
  state: { secret?: string; notice?: string; error?: string; url?: string } = {},
  status: 200 | 400 | 403 | 404 = 200,
) {
  const { member, csrfToken, deps } = c.var
  const manager = canManage(member.role)
  const endpoints = manager ? await listEndpoints(deps, member.workspaceId) : []
  const deliveries = await Promise.all(
    endpoints.map((e) => listDeliveries(deps, member.workspaceId, e.id, { limit: 10 }).then((p) => p.data)),
  )
  const path = (p: string) => workspacePage(member, `/settings/webhooks${p}`)
  return c.html(
    <SettingsPage title="Webhooks" section="/webhooks" member={member} csrfToken={csrfToken}>
      <Message kind="notice" text={state.notice} />
      <Message kind="error" text={state.error} />
      {state.secret ? (
        <section class="notice" aria-labelledby="new-secret">
          <h2 id="new-secret">Signing secret</h2>
          <p>Copy it now: it is shown only this once.</p>
          <p class="secret">{state.secret}</p>
        </section>
      ) : null}
      {manager ? (
        <>
          <form method="post" action={path('')}>
            <Csrf token={csrfToken} />
            <Field name="url" label="Endpoint URL (https)" type="url" value={state.url} />
            <fieldset>
              <legend>Events</legend>
              {WEBHOOK_EVENT_TYPES.map((t) => (
                <label class="inline-check">
                  <input type="checkbox" name="events" value={t} checked /> {t}
                </label>
              ))}
            </fieldset>
            <button type="submit">Add endpoint</button>
          </form>
          {endpoints.map((e, i) => (
            <section aria-label={`Endpoint ${e.url}`}>
              <h2 class="endpoint-url">{e.url}</h2>
              <p class="muted">
                {e.enabled ? 'enabled' : `disabled${e.disabledReason ? `: ${e.disabledReason}` : ''}`} ·{' '}
                {e.events.join(', ')}
              </p>
              <ActionButton
                action={path(`/${e.id}/delete`)}
                csrfToken={csrfToken}
                class="danger"
                label={`Delete endpoint ${e.url}`}
              >
                Delete
              </ActionButton>
              <ListTable caption="Recent deliveries" columns={['Event', 'Status', 'Attempts', 'Replay']}>
                {(deliveries[i] ?? []).map((d) => (
                  <tr>
                    <td data-label="Event">{d.eventType}</td>
                    <td data-label="Status">{d.status}</td>
                    <td data-label="Attempts">
                      {d.attempts.map((a) => a.statusCode ?? a.errorClass ?? '?').join(', ')}
                    </td>
                    <td data-label="Replay">
                      <ActionButton
                        action={path(`/${e.id}/replay/${d.eventId}`)}
                        csrfToken={csrfToken}
                        class="secondary"
                      >
                        Replay
                      </ActionButton>
                    </td>
                  </tr>
                ))}
              </ListTable>
            </section>
          ))}
        </>
      ) : null}
    </SettingsPage>,
    status,
  )
}

function refusal(c: Context<DashboardEnv>, err: unknown, url?: string) {
  if (!(err instanceof AppError)) throw err
  const status = err.code === 'plan_limit_reached' ? 403 : err.code === 'not_found' ? 404 : 400
  if (status === 400 && err.code !== 'invalid_request') throw err
  return render(c, { error: err.message, ...(url ? { url } : {}) }, status)
}

/** Registers `/settings/webhooks` and its actions. */
export function registerWebhookPages(app: Hono<DashboardEnv>): void {
  app.get('/settings/webhooks', (c) => refuseReviewer(c) ?? render(c))

  app.post('/settings/webhooks', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const body = await c.req.parseBody({ all: true })
    const url = typeof body.url === 'string' ? body.url.trim() : ''
    const picked = ([] as unknown[]).concat(body.events ?? [])
    const events = WEBHOOK_EVENT_TYPES.filter((t) => picked.includes(t)) as WebhookEventType[]
    if (events.length === 0) return render(c, { error: 'Choose at least one event.', url }, 400)
    try {
      const created = await createEndpoint(c.var.deps, dashboardCaller(c), { url, events })
      return render(c, { secret: created.secret, notice: 'Endpoint added.' })
    } catch (err) {
      return refusal(c, err, url)
    }
  })

  app.post('/settings/webhooks/:endpointId/delete', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    try {
      await deleteEndpoint(c.var.deps, dashboardCaller(c), c.req.param('endpointId'))
      return render(c, { notice: 'Endpoint deleted.' })
    } catch (err) {
      return refusal(c, err)
    }
  })

  app.post('/settings/webhooks/:endpointId/replay/:eventId', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    try {
      const { endpointId, eventId } = c.req.param()
      await replayEvent(c.var.deps, c.var.member.workspaceId, eventId, { endpointId })
      return render(c, { notice: 'Event sent again.' })
    } catch (err) {
      return refusal(c, err)
    }
  })
}
