/**
 * `/app/w/{id}/notifications`: the signed-in member's notifications (newest first, unread only on
 * request, pages by cursor), marking one or all read, and `/settings/notifications`: which kinds
 * reach them in the app and by email. Every role has both: notifications are personal.
 */
import type { Context, Hono } from 'hono'
import { NOTIFICATION_KINDS } from '../../domain/notifications'
import {
  getNotificationPreferences,
  listNotifications,
  type Notification,
  readAllNotifications,
  readNotification,
  updateNotificationPreferences,
} from '../../services/notifications/inbox'
import type { DashboardEnv, DashboardMember } from '../env'
import { dashboardCaller } from '../caller'
import { workspacePage } from '../env'
import { Layout } from '../layout'
import { Csrf, Message } from '../pages'
import { formFields } from '../session'
import { SettingsPage } from '../settings/frame'
import { Button, ButtonLink, EmptyState, PageHeader } from '../ui'

const when = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso))

function NotificationItem(props: { n: Notification; member: DashboardMember; csrfToken: string }) {
  const { n, member } = props
  return (
    <li class={n.read ? 'notification' : 'notification notification-unread'} data-notification={n.id}>
      <form method="post" action={workspacePage(member, `/notifications/${n.id}/read`)}>
        <Csrf token={props.csrfToken} />
        <p class="notification-title">
          {n.read ? null : <span class="visually-hidden">Unread: </span>}
          <strong>{n.title}</strong>
        </p>
        <p>{n.body}</p>
        <p class="muted">
          <time datetime={n.createdAt}>{when(n.createdAt, member.timeZone)}</time>
        </p>
        <div class="actions">
          {n.link ? (
            <Button variant="secondary" class="btn-small" name="open" value="1">
              Open
            </Button>
          ) : null}
          {n.read ? null : (
            <Button variant="ghost" class="btn-small">
              Mark read
            </Button>
          )}
        </div>
      </form>
    </li>
  )
}

async function renderList(c: Context<DashboardEnv>) {
  const { member, csrfToken, deps } = c.var
  const unreadOnly = c.req.query('unread') === '1'
  const cursor = c.req.query('cursor') || undefined
  const page = await listNotifications(deps, dashboardCaller(c), { unread: unreadOnly, cursor, limit: 30 })
  const base = workspacePage(member, '/notifications')
  return c.html(
    <Layout title="Notifications" member={member} csrfToken={csrfToken} current="notifications">
      <PageHeader
        title="Notifications"
        description="What happened to your posts and accounts, and who mentioned you."
        actions={
          <form method="post" action={`${base}/read-all`}>
            <Csrf token={csrfToken} />
            <Button variant="secondary">Mark all read</Button>
          </form>
        }
      />
      <p>
        {unreadOnly ? <a href={base}>Show all</a> : <a href={`${base}?unread=1`}>Show unread only</a>}
        {' · '}
        <a href={workspacePage(member, '/settings/notifications')}>Choose which notifications you get</a>
      </p>
      {page.data.length === 0 ? (
        <EmptyState title={unreadOnly ? 'Nothing unread' : 'No notifications yet'}>
          Reviews, failed posts, accounts to reconnect and mentions will show here.
        </EmptyState>
      ) : (
        <ul class="notifications">
          {page.data.map((n) => (
            <NotificationItem n={n} member={member} csrfToken={csrfToken} />
          ))}
        </ul>
      )}
      {page.nextCursor ? (
        <ButtonLink
          variant="secondary"
          href={`${base}?${unreadOnly ? 'unread=1&' : ''}cursor=${encodeURIComponent(page.nextCursor)}`}
        >
          Older
        </ButtonLink>
      ) : null}
    </Layout>,
  )
}

async function renderPreferences(c: Context<DashboardEnv>, notice?: string) {
  const { member, csrfToken, deps } = c.var
  const { preferences } = await getNotificationPreferences(deps, dashboardCaller(c))
  return c.html(
    <SettingsPage title="Your notifications" section="/notifications" personal member={member} csrfToken={csrfToken}>
      <Message kind="notice" text={notice} />
      <p>Choose what reaches you in this workspace: in the app (the bell), by email, or both.</p>
      <form method="post" action={workspacePage(member, '/settings/notifications')}>
        <Csrf token={csrfToken} />
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">In the app</th>
              <th scope="col">By email</th>
            </tr>
          </thead>
          <tbody>
            {preferences.map((p) => (
              <tr>
                <th scope="row">{p.description}</th>
                <td>
                  <input
                    type="checkbox"
                    name={`inApp_${p.kind}`}
                    value="1"
                    checked={p.inApp}
                    aria-label={`${p.description}: in the app`}
                  />
                </td>
                <td>
                  <input
                    type="checkbox"
                    name={`email_${p.kind}`}
                    value="1"
                    checked={p.email}
                    aria-label={`${p.description}: by email`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Button>Save</Button>
      </form>
    </SettingsPage>,
  )
}

/** Registers the notifications pages on the workspace sub-app. */
export function registerNotificationPages(app: Hono<DashboardEnv>): void {
  app.get('/notifications', (c) => renderList(c))

  app.post('/notifications/read-all', async (c) => {
    await readAllNotifications(c.var.deps, dashboardCaller(c))
    return c.redirect(workspacePage(c.var.member, '/notifications'), 303)
  })

  app.post('/notifications/:id/read', async (c) => {
    const fields = await formFields(c)
    const n = await readNotification(c.var.deps, dashboardCaller(c), c.req.param('id'))
    const open = fields.open === '1' && n.link?.startsWith(`/app/w/${c.var.member.workspaceId}/`)
    return c.redirect(open ? n.link! : workspacePage(c.var.member, '/notifications'), 303)
  })

  app.get('/settings/notifications', (c) => renderPreferences(c))

  app.post('/settings/notifications', async (c) => {
    const fields = await formFields(c)
    await updateNotificationPreferences(
      c.var.deps,
      dashboardCaller(c),
      NOTIFICATION_KINDS.map((kind) => ({
        kind,
        inApp: fields[`inApp_${kind}`] === '1',
        email: fields[`email_${kind}`] === '1',
      })),
    )
    return renderPreferences(c, 'Saved.')
  })
}
