/**
 * The accounts page (`/accounts`): each account's health, and connect, reconnect and disconnect
 * through the services of `POST /v1/accounts/connect`, `/{id}/reconnect` and `/{id}/disconnect`.
 * Connecting opens the hosted connect page, which sends the member back here.
 */
import { dashboardCaller } from '../caller'
import { can } from '../../domain/access'
import type { Hono } from 'hono'
import { CONNECTIONS, type Connection, PLATFORM_IDS, type PlatformId } from '../../domain/vocabulary'
import { disconnectAccount } from '../../services/accounts/disconnect'
import { assertAccountVisible } from '../../services/access/visibility'
import { getAccount, listAccounts } from '../../services/accounts/accounts'
import { type GroupRecord, listGroups } from '../../services/groups/groups'
import { createConnectLink, createReconnectLink } from '../../services/connect/links'
import { type DashboardEnv, workspacePage } from '../env'
import { connectRefusalMessage } from './connect-messages'
import { AccountGroupChips, ConnectGroupField, GroupFilter } from './account-groups'
import { Layout } from '../layout'
import { EmptyState, NetworkMark, networkName, PageHeader } from '../ui'
import {
  back,
  CsrfField,
  frame,
  isNotFound,
  Notice,
  orNotFound,
  type PageContext,
  refusalOf,
  StatusBadge,
  ZonedTime,
} from './shared'
import { permitted } from '../workspace'

/** Where the hosted connect page lives (the API's own address), as the connect route finds it. */
const baseUrlOf = (c: PageContext) => c.var.deps.settings.publicUrl ?? new URL(c.req.url).origin

/** This page as an absolute URL: where the hosted connect page sends the member back. */
const returnUrl = (c: PageContext) => new URL(workspacePage(c.get('member'), '/accounts'), baseUrlOf(c)).href

/**
 * The ways to connect the member may pick, besides the network's default: every connection, in
 * words; one the chosen network does not take is refused by the connect service, naming those it does.
 */
const CONNECTION_CHOICES: Record<Exclude<Connection, 'SANDBOX'>, string> = {
  DIRECT_LOGIN: "The network's own sign-in",
  SOCIALGRAPH_LOGIN: "The page network's sign-in",
  APP_PASSWORD: 'An app password, typed into a form',
  API_KEY: 'An API key, typed into a form',
  BOT_TOKEN: 'A bot token, typed into a form',
  WEBHOOK: 'A webhook address, typed into a form',
  REMOTE_SIGNER: 'A remote signer (bunker URL), typed into a form',
  PRIVATE_KEY: 'A private key, typed into a form',
}

/** Registers the accounts page and its actions. */
export function registerAccounts(app: Hono<DashboardEnv>): void {
  app.get('/accounts', async (c) => {
    const { member, csrfToken } = frame(c)
    const viewer = dashboardCaller(c)
    const groups: GroupRecord[] = await listGroups(c.var.deps.db, viewer)
    const groupId = groups.find((g) => g.id === c.req.query('groupId'))?.id
    const accounts = await listAccounts(c.var.deps.db, member.workspaceId, {
      groupId,
      visibleGroupIds: member.groupIds ?? null,
    })
    const url = (path: string) => workspacePage(member, path)
    const connected = c.req.query('accountId')
    const connects = can(member.role, 'connect')
    return c.html(
      <Layout title="Accounts" member={member} csrfToken={csrfToken} current="accounts">
        <PageHeader
          title="Accounts"
          description="The social accounts this workspace publishes to: their health, and connecting more."
        />
        {connected && accounts.some((a) => a.id === connected) ? (
          <p class="notice" role="status">
            Account connected.
          </p>
        ) : null}
        {c.req.query('error') ? (
          <p class="problem" role="alert">
            {connectRefusalMessage(c.req.query('error') ?? '')}
          </p>
        ) : null}
        <Notice c={c} />
        {connects ? (
          <form method="post" action={url('/accounts/connect')} class="connect-form">
            <CsrfField token={csrfToken} />
            <div class="connect-field">
              <label for="platform">Network</label>
              <select name="platform" id="platform" required>
                {PLATFORM_IDS.map((p) => (
                  <option value={p}>{networkName(p)}</option>
                ))}
              </select>
            </div>
            <div class="connect-field">
              <label for="connection">Connect through</label>
              <select name="connection" id="connection">
                <option value="">The network's usual way</option>
                {Object.entries(CONNECTION_CHOICES).map(([value, label]) => (
                  <option value={value}>{label}</option>
                ))}
                <option value="SANDBOX">Sandbox (simulated network)</option>
              </select>
            </div>
            <ConnectGroupField groups={groups} limited={viewer.access.groupIds !== null} current={groupId} />
            <button type="submit">Connect an account</button>
          </form>
        ) : null}
        <h2 id="connected-accounts">Connected accounts</h2>
        <GroupFilter
          groups={groups}
          current={groupId}
          href={(id) => url(id ? `/accounts?groupId=${id}` : '/accounts')}
        />
        {accounts.length === 0 && groupId ? (
          <EmptyState title="No account in this group">Add accounts to it from Settings, Groups.</EmptyState>
        ) : accounts.length === 0 ? (
          <EmptyState title="No account is connected yet">
            Choose a network above and connect the first one; posts go to the accounts connected here.
          </EmptyState>
        ) : null}
        <ul class="account-cards" aria-labelledby="connected-accounts">
          {accounts.map((a) => (
            <li class="account-card" id={`account-${a.id}`}>
              <div class="account-head">
                <NetworkMark platform={a.platform} size="large" />
                <span class="account-name">{a.username}</span>
                <StatusBadge status={a.status} />
              </div>
              <p class="account-network">
                {networkName(a.platform)} <span class="muted">· {a.connection.toLowerCase()}</span>
              </p>
              <AccountGroupChips groups={groups} groupIds={a.groupIds} />
              {a.statusReason ? <p class="account-reason">{a.statusReason}</p> : null}
              {a.sync?.lastError ? (
                <p class="account-reason">
                  Reading its {a.sync.lastError.stream} fails: {a.sync.lastError.message} (retried on its own)
                </p>
              ) : null}
              <dl class="facts">
                <div>
                  <dt>Connected</dt>
                  <dd>
                    <ZonedTime at={a.connectedAt} timeZone={member.timeZone} />
                  </dd>
                </div>
                <div>
                  <dt>Last published</dt>
                  <dd>
                    {a.lastPublishedAt ? <ZonedTime at={a.lastPublishedAt} timeZone={member.timeZone} /> : 'Not yet'}
                  </dd>
                </div>
                {a.tokenExpiresAt ? (
                  <div>
                    <dt>Token expires</dt>
                    <dd>
                      <ZonedTime at={a.tokenExpiresAt} timeZone={member.timeZone} />
                    </dd>
                  </div>
                ) : null}
              </dl>
              {connects ? (
                <div class="card-actions">
                  <form method="post" action={url(`/accounts/${a.id}/reconnect`)}>
                    <CsrfField token={csrfToken} />
                    <button
                      type="submit"
                      class="secondary"
                      aria-label={`Reconnect ${a.username} (${networkName(a.platform)})`}
                    >
                      Reconnect
                    </button>
                  </form>
                  {a.status !== 'DISCONNECTED' ? (
                    <a
                      class="action-link"
                      href={url(`/accounts/${a.id}/disconnect`)}
                      aria-label={`Disconnect ${a.username} (${networkName(a.platform)})`}
                    >
                      Disconnect
                    </a>
                  ) : null}
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      </Layout>,
    )
  })

  app.post('/accounts/connect', permitted('connect'), async (c) => {
    const { member } = frame(c)
    const form = await c.req.parseBody()
    const platform = PLATFORM_IDS.find((p) => p === form.platform) as PlatformId | undefined
    if (!platform) return back(c, workspacePage(member, '/accounts'), { problem: 'Choose a network.' })
    const connection = CONNECTIONS.find((value) => value === form.connection)
    const groupId = typeof form.groupId === 'string' && form.groupId !== '' ? form.groupId : undefined
    try {
      const link = await createConnectLink(
        c.var.deps,
        dashboardCaller(c),
        {
          platform,
          ...(connection ? { connection } : {}),
          ...(groupId ? { groupId } : {}),
          redirectUrl: returnUrl(c),
        },
        baseUrlOf(c),
      )
      return c.redirect(link.url, 303)
    } catch (err) {
      return back(c, workspacePage(member, '/accounts'), { problem: refusalOf(err).message })
    }
  })

  app.post('/accounts/:accountId/reconnect', permitted('connect'), (c) =>
    orNotFound(c, async () => {
      const { member } = frame(c)
      await assertAccountVisible(c.var.deps.db, dashboardCaller(c), c.req.param('accountId'))
      try {
        const input = { redirectUrl: returnUrl(c) }
        const link = await createReconnectLink(
          c.var.deps,
          member.workspaceId,
          c.req.param('accountId'),
          input,
          baseUrlOf(c),
        )
        return c.redirect(link.url, 303)
      } catch (err) {
        if (isNotFound(err)) throw err
        return back(c, workspacePage(member, '/accounts'), { problem: refusalOf(err).message })
      }
    }),
  )

  app.get('/accounts/:accountId/disconnect', permitted('connect'), (c) =>
    orNotFound(c, async () => {
      const { member, csrfToken } = frame(c)
      await assertAccountVisible(c.var.deps.db, dashboardCaller(c), c.req.param('accountId'))
      const account = await getAccount(c.var.deps.db, member.workspaceId, c.req.param('accountId'))
      return c.html(
        <Layout title="Disconnect account" member={member} csrfToken={csrfToken} current="accounts">
          <h1>
            Disconnect {account.username} ({networkName(account.platform)})?
          </h1>
          <p>
            Its posts waiting to publish will fail, and the network is asked to revoke its token where it allows it. You
            can reconnect it later.
          </p>
          <form method="post" action={workspacePage(member, `/accounts/${account.id}/disconnect`)} class="card-actions">
            <CsrfField token={csrfToken} />
            <button type="submit" class="danger">
              Disconnect
            </button>
            <a class="action-link" href={workspacePage(member, '/accounts')}>
              Cancel
            </a>
          </form>
        </Layout>,
      )
    }),
  )

  app.post('/accounts/:accountId/disconnect', permitted('connect'), (c) =>
    orNotFound(c, async () => {
      const { member } = frame(c)
      await assertAccountVisible(c.var.deps.db, dashboardCaller(c), c.req.param('accountId'))
      const result = await disconnectAccount(c.var.deps, dashboardCaller(c), c.req.param('accountId'))
      const failed = result.failedTargets ? ` ${result.failedTargets} waiting publish(es) failed.` : ''
      return back(c, workspacePage(member, '/accounts'), {
        notice: `Account ${result.account.username} disconnected.${failed}`,
      })
    }),
  )
}
