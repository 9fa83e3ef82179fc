/**
 * The calendar's toolbar: previous / today / next, the view switch (week, month, list) and the
 * filters by account, network and status, a GET form that works without JavaScript and keeps the
 * view and day it was shown with.
 */
import { can } from '../../domain/access'
import type { PlatformId } from '../../domain/vocabulary'
import type { StatusGroup } from '../../services/posts/calendar'
import { type DashboardMember, workspacePage } from '../env'
import { networkName } from '../ui'
import { type CalendarParams, type CalendarView, calendarHref } from './calendar-params'

export interface FilterAccount {
  id: string
  platform: PlatformId
  username: string
}

const STATUS_LABELS: Record<StatusGroup, string> = {
  upcoming: 'Upcoming',
  published: 'Published',
  failed: 'Failed',
  draft: 'Drafts',
  review: 'In review',
}
const VIEW_LABELS: Record<CalendarView, string> = { week: 'Week', month: 'Month', list: 'List' }

export function CalendarToolbar(props: {
  member: DashboardMember
  params: CalendarParams
  /** Days of the previous and next week or month (absent for the list). */
  step: { previous: string; next: string } | null
  today: string
}) {
  const { member, params, step } = props
  const viewHref = (view: CalendarView) =>
    calendarHref(member, params, {
      view,
      page: 1,
      on: null,
      filter: view === 'list' && !params.filter.status ? { status: 'upcoming' } : {},
    })
  return (
    <div class="cal-toolbar">
      {step ? (
        <nav class="cal-steps" aria-label="Calendar dates">
          <a class="cal-step" href={calendarHref(member, params, { day: step.previous })}>
            <span aria-hidden="true">‹</span> Previous
          </a>
          <a class="cal-step" href={calendarHref(member, params, { day: props.today })}>
            Today
          </a>
          <a class="cal-step" href={calendarHref(member, params, { day: step.next })}>
            Next <span aria-hidden="true">›</span>
          </a>
        </nav>
      ) : null}
      <nav class="cal-views" aria-label="Calendar view">
        {(['week', 'month', 'list'] as const).map((view) => (
          <a href={viewHref(view)} aria-current={params.view === view ? 'page' : undefined}>
            {VIEW_LABELS[view]}
          </a>
        ))}
      </nav>
      {can(member.role, 'write') ? (
        <a class="cal-new button" href={workspacePage(member, '/compose')}>
          New post
        </a>
      ) : null}
    </div>
  )
}

/** A group or label to filter by. */
export interface FilterOption {
  id: string
  name: string
}

/** A select of groups or labels; nothing when the workspace has none. */
export function OptionFilter(props: {
  id: string
  name: string
  label: string
  any: string
  options: FilterOption[]
  selected: string | undefined
  class?: string
}) {
  if (props.options.length === 0) return null
  return (
    <div class={props.class ?? 'cal-filter'}>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} name={props.name}>
        <option value="">{props.any}</option>
        {props.options.map((o) => (
          <option value={o.id} selected={props.selected === o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </div>
  )
}

export function CalendarFilters(props: {
  member: DashboardMember
  params: CalendarParams
  accounts: FilterAccount[]
  groups: FilterOption[]
  labels: FilterOption[]
}) {
  const { member, params, accounts } = props
  const networks = [...new Set(accounts.map((a) => a.platform))]
  const { filter } = params
  const active = Boolean(filter.accountId || filter.platform || filter.status || filter.groupId || filter.labelId)
  return (
    <form class="cal-filters" method="get" action={workspacePage(member, '/calendar')}>
      <input type="hidden" name="view" value={params.view} />
      {params.view === 'list' && params.on ? (
        <input type="hidden" name="on" value={params.on} />
      ) : (
        <input type="hidden" name="day" value={params.day} />
      )}
      <OptionFilter
        id="cal-group"
        name="group"
        label="Group"
        any="All groups"
        options={props.groups}
        selected={filter.groupId}
      />
      <div class="cal-filter">
        <label for="cal-account">Account</label>
        <select id="cal-account" name="account">
          <option value="">All accounts</option>
          {accounts.map((a) => (
            <option value={a.id} selected={filter.accountId === a.id}>
              {`${a.username} (${networkName(a.platform)})`}
            </option>
          ))}
        </select>
      </div>
      <div class="cal-filter">
        <label for="cal-network">Network</label>
        <select id="cal-network" name="network">
          <option value="">All networks</option>
          {networks.map((p) => (
            <option value={p} selected={filter.platform === p}>
              {networkName(p)}
            </option>
          ))}
        </select>
      </div>
      <div class="cal-filter">
        <label for="cal-status">Status</label>
        <select id="cal-status" name="status">
          <option value="">Any status</option>
          {(Object.keys(STATUS_LABELS) as StatusGroup[]).map((s) => (
            <option value={s} selected={filter.status === s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <OptionFilter
        id="cal-label"
        name="label"
        label="Label"
        any="Any label"
        options={props.labels}
        selected={filter.labelId}
      />
      <div class="cal-filter-actions">
        <button type="submit">Apply filters</button>
        {active ? (
          <a
            href={calendarHref(member, params, {
              page: 1,
              filter: {
                accountId: undefined,
                platform: undefined,
                status: undefined,
                groupId: undefined,
                labelId: undefined,
              },
            })}
          >
            Clear
          </a>
        ) : null}
      </div>
    </form>
  )
}

/** The list's tabs: upcoming, published, failed, drafts, everything. */
export function StatusTabs(props: { member: DashboardMember; params: CalendarParams }) {
  const { member, params } = props
  const tabs: Array<[StatusGroup | undefined, string]> = [
    ...(Object.entries(STATUS_LABELS) as Array<[StatusGroup, string]>),
    [undefined, 'All'],
  ]
  return (
    <nav class="cal-tabs" aria-label="Posts by status">
      {tabs.map(([status, label]) => (
        <a
          href={calendarHref(member, params, { page: 1, filter: { status } })}
          aria-current={params.filter.status === status ? 'page' : undefined}
        >
          {label}
        </a>
      ))}
    </nav>
  )
}
