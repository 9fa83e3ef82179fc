/** The frame of every settings page: the layout, the sections' navigation, a note for members. */
import type { Child } from 'hono/jsx'
import { canManage } from '../../domain/people'
import type { DashboardMember } from '../env'
import { workspacePage } from '../env'
import { Layout } from '../layout'
import { Tabs } from '../ui'

const SECTIONS: Array<[string, string]> = [
  ['', 'Workspace, plan and usage'],
  ['/members', 'Members and invitations'],
  ['/tokens', 'API tokens'],
  ['/webhooks', 'Webhooks'],
  ['/notifications', 'Your notifications'],
  ['/activity', 'Activity'],
  ['/review-links', 'Review links'],
]

/** A settings page: the layout, the settings sections' navigation, and a note for members who cannot manage. */
export function SettingsPage(props: {
  title: string
  member: DashboardMember
  csrfToken: string
  /** The section shown (its path under /settings: '', '/members', '/tokens', '/webhooks'). */
  section: string
  /** The member's own settings (every role changes them): no note about managing. */
  personal?: boolean
  children?: Child
}) {
  return (
    <Layout title={props.title} member={props.member} csrfToken={props.csrfToken} current="settings">
      <Tabs
        label="Settings"
        current={props.section}
        tabs={SECTIONS.map(([path, label]) => ({
          key: path,
          label,
          href: workspacePage(props.member, `/settings${path}`),
        }))}
      />
      <h1>{props.title}</h1>
      {props.personal || canManage(props.member.role) ? null : (
        <p class="muted">You are a member of this workspace: only its owners and admins can change these settings.</p>
      )}
      {props.children}
    </Layout>
  )
}
