/** The frame of every settings page: the layout, the sections' navigation, a note for those who cannot change them. */
import type { Context } from 'hono'
import type { Child } from 'hono/jsx'
import { canManage } from '../../domain/people'
import type { DashboardEnv, DashboardMember } from '../env'
import { workspacePage } from '../env'
import { Layout } from '../layout'
import { ButtonLink, PageHeader } from '../ui'

/**
 * The settings sections in the order the navigation lists them: path under /settings, label. Each page
 * of settings adds its line here (review links, activity and notifications included).
 */
const SECTIONS: Array<[string, string]> = [
  ['', 'Workspace'],
  ['/members', 'Members'],
  ['/groups', 'Groups'],
  ['/labels', 'Labels'],
  ['/tokens', 'API tokens'],
  ['/webhooks', 'Webhooks'],
  ['/review-links', 'Review links'],
  ['/activity', 'Activity'],
  ['/notifications', 'Your notifications'],
]

/** The sections every role has, reviewers included: their own preferences. */
const PERSONAL_SECTIONS = new Set(['/notifications'])

/** The settings' own navigation: a column beside the page on a wide screen, a row that scrolls on a phone. */
function SettingsNav(props: { member: DashboardMember; section: string }) {
  return (
    <nav aria-label="Settings" class="settings-nav">
      <ul>
        {SECTIONS.filter(([path]) => props.member.role !== 'reviewer' || PERSONAL_SECTIONS.has(path)).map(
          ([path, label]) => (
            <li>
              <a
                href={workspacePage(props.member, `/settings${path}`)}
                aria-current={path === props.section ? 'page' : undefined}
              >
                {label}
              </a>
            </li>
          ),
        )}
      </ul>
    </nav>
  )
}

/** A settings page: the layout, the settings sections' navigation, and a note for members who cannot manage. */
export function SettingsPage(props: {
  title: string
  member: DashboardMember
  csrfToken: string
  /** The section shown (its path under /settings: '', '/members', '/groups', ...). */
  section: string
  /** A line under the title saying what the page is for. */
  description?: Child
  /** The page's primary action, beside its title. */
  actions?: Child
  /** The note for those who cannot manage; false when the page is theirs too (labels). */
  managersOnly?: boolean
  /** The member's own settings (every role changes them): no note about managing. */
  personal?: boolean
  children?: Child
}) {
  return (
    <Layout title={props.title} member={props.member} csrfToken={props.csrfToken} current="settings">
      <div class="settings">
        <SettingsNav member={props.member} section={props.section} />
        <div class="settings-body">
          <PageHeader title={props.title} description={props.description} actions={props.actions} />
          {canManage(props.member.role) || props.managersOnly === false || props.personal ? null : (
            <p class="settings-readonly">
              You are a member of this workspace: only its owners and admins can change these settings.
            </p>
          )}
          {props.children}
        </div>
      </div>
    </Layout>
  )
}

/**
 * Refuses (403 page, in the workspace's frame so the navigation stays) a reviewer: reviewers read,
 * comment on and review posts; the workspace's settings (its members, groups, tokens, webhooks) are not
 * theirs to see. Null when the member may go on.
 */
export function refuseReviewer(c: Context<DashboardEnv>): Response | null {
  const { member, csrfToken } = c.var
  if (member.role !== 'reviewer') return null
  return c.html(
    <Layout title="Not allowed" member={member} csrfToken={csrfToken} current="settings">
      <section class="error-view settings-refused" aria-labelledby="error-title">
        <p class="error-view-status">Error 403</p>
        <h1 id="error-title">Not allowed</h1>
        <p role="alert">
          Reviewers see and review the workspace's posts; its settings are for its owners, admins and members.
        </p>
        <div class="actions">
          <ButtonLink href={workspacePage(member, '/calendar')}>Open the calendar</ButtonLink>
        </div>
      </section>
    </Layout>,
    403,
  ) as unknown as Response
}
