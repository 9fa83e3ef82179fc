/**
 * Groups of accounts (a client, a brand): each with its accounts, a colour and whether its posts need
 * an approval; create, edit (the accounts chosen from large rows that work by touch) and delete.
 * The services of `/v1/groups`; owners and admins only.
 */
import type { Context, Hono } from 'hono'
import { canManage } from '../../domain/people'
import { listAccounts } from '../../services/accounts/accounts'
import { createGroup, deleteGroup, getGroup, listGroups, updateGroup } from '../../services/groups/groups'
import type { DashboardEnv } from '../env'
import { workspacePage } from '../env'
import { Csrf, Field, Message } from '../pages'
import { back, Notice, orNotFound } from '../pages/shared'
import { ButtonLink, EmptyState, NetworkMark } from '../ui'
import { refuseUnlessManager } from '../workspace'
import { dashboardCaller } from '../caller'
import { refuseReviewer, SettingsPage } from './frame'
import {
  AccountPicker,
  allValues,
  ConfirmDelete,
  Dot,
  type PickAccount,
  type PickGroup,
  parseColor,
  Swatches,
  saveThenBack,
  Switch,
} from './parts'

interface GroupValues {
  name: string
  color: string | null
  approvalRequired: boolean
  accountIds: string[]
}

const path = (c: Context<DashboardEnv>, p = '') => workspacePage(c.var.member, `/settings/groups${p}`)

/** The group's accounts as chips with their network's mark. */
function GroupAccounts(props: { group: PickGroup; accounts: Map<string, PickAccount> }) {
  const mine = props.group.accountIds.map((id) => props.accounts.get(id)).filter((a): a is PickAccount => !!a)
  if (mine.length === 0) return <p class="group-meta">No account yet: edit the group to add some.</p>
  return (
    <ul class="group-accounts" aria-label={`Accounts of ${props.group.name}`}>
      {mine.map((a) => (
        <li>
          <span class={`chip network-chip network-${a.platform}`}>
            <NetworkMark platform={a.platform} labelled />
            <span>{a.username}</span>
          </span>
        </li>
      ))}
    </ul>
  )
}

/** The form of a new or an edited group. */
function GroupForm(props: {
  c: Context<DashboardEnv>
  action: string
  values: GroupValues
  accounts: PickAccount[]
  error?: string
  submit: string
}) {
  const { values } = props
  return (
    <form method="post" action={props.action} class="setting" aria-labelledby="group-form-title">
      <div class="setting-head">
        <h2 id="group-form-title">Group</h2>
        <p>A client or a brand: its accounts, filtered together on the calendar, in lists and in analytics.</p>
      </div>
      <div class="setting-body">
        <Csrf token={props.c.var.csrfToken} />
        <Field name="name" label="Name" value={values.name} error={props.error} hint="For example the client's name." />
        <Swatches name="color" value={values.color} idPrefix="group-color" />
        <Switch
          id="group-approval"
          name="approvalRequired"
          title="Posts to these accounts require approval"
          help="Even when the workspace does not ask for it: a post that goes to any account of this group waits for a reviewer's yes."
          checked={values.approvalRequired}
        />
        {props.accounts.length ? (
          <AccountPicker accounts={props.accounts} chosen={values.accountIds} legend="Accounts in this group" />
        ) : (
          <p class="muted">Connect accounts first (Accounts); then choose them here.</p>
        )}
      </div>
      <div class="setting-foot">
        <a class="action-link" href={path(props.c)}>
          Cancel
        </a>
        <button type="submit">{props.submit}</button>
      </div>
    </form>
  )
}

async function readValues(c: Context<DashboardEnv>): Promise<GroupValues> {
  const body = await c.req.parseBody({ all: true })
  return {
    name: typeof body.name === 'string' ? body.name.trim() : '',
    color: parseColor(typeof body.color === 'string' ? body.color : undefined),
    approvalRequired: body.approvalRequired === 'on',
    accountIds: allValues(body, 'accountIds'),
  }
}

const pickAccounts = async (c: Context<DashboardEnv>): Promise<PickAccount[]> =>
  (await listAccounts(c.var.deps.db, c.var.member.workspaceId)).map((a) => ({
    id: a.id,
    platform: a.platform,
    username: a.username,
  }))

/** The group form's page (new or edit), with the refusal of the last try when there was one. */
async function formPage(
  c: Context<DashboardEnv>,
  props: { groupId?: string; values: GroupValues; error?: string },
  status: 200 | 400 | 409 = 200,
) {
  const { member, csrfToken } = c.var
  const accounts = await pickAccounts(c)
  const editing = props.groupId
  return c.html(
    <SettingsPage
      title={editing ? `Edit ${props.values.name || 'group'}` : 'New group'}
      section="/groups"
      member={member}
      csrfToken={csrfToken}
      description="Choose its accounts; members and reviewers can then be limited to it."
    >
      <Message kind="error" text={props.error} />
      <GroupForm
        c={c}
        action={editing ? path(c, `/${editing}`) : path(c)}
        values={props.values}
        accounts={accounts}
        submit={editing ? 'Save group' : 'Create group'}
      />
      {editing ? (
        <section class="setting is-danger" aria-labelledby="delete-group-title">
          <div class="setting-head">
            <h2 id="delete-group-title">Delete this group</h2>
            <p>Its accounts stay connected and keep their posts; members limited to it lose what it gave them.</p>
          </div>
          <div class="setting-body">
            <ConfirmDelete
              action={path(c, `/${editing}/delete`)}
              csrfToken={csrfToken}
              what="group"
              label={`Delete ${props.values.name}`}
            >
              Delete “{props.values.name}” for good?
            </ConfirmDelete>
          </div>
        </section>
      ) : null}
    </SettingsPage>,
    status,
  )
}

/** The refusals of the groups service the form shows with its message; anything else goes on. */
const FIXABLE = ['invalid_request', 'name_taken', 'account_not_found']

/** Registers `/settings/groups` and its pages and actions. */
export function registerGroupPages(app: Hono<DashboardEnv>): void {
  app.get('/settings/groups', async (c) => {
    const stop = refuseReviewer(c)
    if (stop) return stop
    const { member, csrfToken, deps } = c.var
    const [groups, accounts] = await Promise.all([listGroups(deps.db, dashboardCaller(c)), pickAccounts(c)])
    const byId = new Map(accounts.map((a) => [a.id, a]))
    const manager = canManage(member.role)
    return c.html(
      <SettingsPage
        title="Groups"
        section="/groups"
        member={member}
        csrfToken={csrfToken}
        description="Your clients and brands: accounts grouped to filter, review and share together."
        actions={manager ? <ButtonLink href={path(c, '/new')}>New group</ButtonLink> : null}
      >
        <Notice c={c} />
        {groups.length === 0 ? (
          <EmptyState
            title="No group yet"
            action={manager ? <ButtonLink href={path(c, '/new')}>Create the first group</ButtonLink> : null}
          >
            Group a client's accounts to filter the calendar by client, ask for their approval, and give a reviewer only
            what is theirs.
          </EmptyState>
        ) : (
          <ul class="group-list">
            {groups.map((g) => (
              <li class="group-card" id={`group-${g.id}`}>
                <div class="group-top">
                  <h2 class="group-name">
                    <Dot color={g.color} large />
                    {g.name}
                  </h2>
                  {g.approvalRequired ? <span class="badge badge-approval">Requires approval</span> : null}
                  {manager ? (
                    <ButtonLink href={path(c, `/${g.id}`)} variant="secondary" class="btn-small">
                      Edit<span class="visually-hidden"> {g.name}</span>
                    </ButtonLink>
                  ) : null}
                </div>
                <p class="group-meta">
                  {g.accountIds.length} account{g.accountIds.length === 1 ? '' : 's'}
                </p>
                <GroupAccounts group={g} accounts={byId} />
              </li>
            ))}
          </ul>
        )}
      </SettingsPage>,
    )
  })

  app.get('/settings/groups/new', (c) => {
    const stop = refuseUnlessManager(c)
    if (stop) return stop
    return formPage(c, { values: { name: '', color: null, approvalRequired: false, accountIds: [] } })
  })

  app.post('/settings/groups', async (c) => {
    const stop = refuseUnlessManager(c)
    if (stop) return stop
    const values = await readValues(c)
    return saveThenBack(c, {
      save: () => createGroup(c.var.deps, dashboardCaller(c), values),
      list: path(c),
      saved: (group) => `Group “${group.name}” created.`,
      fixable: FIXABLE,
      showAgain: (r) => formPage(c, { values, error: r.message }, r.status),
    })
  })

  app.get('/settings/groups/:groupId', (c) =>
    orNotFound(c, async () => {
      const stop = refuseUnlessManager(c)
      if (stop) return stop
      const g = await getGroup(c.var.deps.db, dashboardCaller(c), c.req.param('groupId'))
      return formPage(c, {
        groupId: g.id,
        values: { name: g.name, color: g.color, approvalRequired: g.approvalRequired, accountIds: [...g.accountIds] },
      })
    }),
  )

  app.post('/settings/groups/:groupId', (c) =>
    orNotFound(c, async () => {
      const stop = refuseUnlessManager(c)
      if (stop) return stop
      const values = await readValues(c)
      const groupId = c.req.param('groupId')
      return saveThenBack(c, {
        save: () => updateGroup(c.var.deps, dashboardCaller(c), groupId, values),
        list: path(c),
        saved: (group) => `Group “${group.name}” saved.`,
        fixable: FIXABLE,
        showAgain: (r) => formPage(c, { groupId, values, error: r.message }, r.status),
      })
    }),
  )

  app.post('/settings/groups/:groupId/delete', (c) =>
    orNotFound(c, async () => {
      const stop = refuseUnlessManager(c)
      if (stop) return stop
      await deleteGroup(c.var.deps, dashboardCaller(c), c.req.param('groupId'))
      return back(c, path(c), { notice: 'Group deleted.' })
    }),
  )
}
