/**
 * Client review links of the workspace (`/settings/review-links`): create one for an account group
 * (its address shown once, with a copy button), list them with their state and last use, revoke.
 * Owners and admins only.
 */
import type { Context, Hono } from 'hono'
import { canManage } from '../../domain/people'
import { REVIEW_LINK_DAYS } from '../../domain/review-links'
import { AppError } from '../../domain/errors'
import {
  type CreatedReviewLink,
  createReviewLink,
  listReviewLinks,
  reviewLinkGroups,
  revokeReviewLink,
} from '../../services/review-links/manage'
import { ClientScript } from '../assets/client-assets'
import type { DashboardEnv } from '../env'
import { workspacePage } from '../env'
import { Csrf, Field, Message } from '../pages'
import { formFields } from '../session'
import { dashboardCaller } from '../caller'
import { refuseUnlessManager } from '../workspace'
import { SettingsPage } from './frame'
import { ActionButton, ListTable, whenUtc } from './parts'

const STATE_WORDS = { active: 'Active', expired: 'Expired', revoked: 'Revoked' }

function CreatedLink({ link }: { link: CreatedReviewLink }) {
  return (
    <section class="notice" aria-labelledby="new-review-link">
      <h2 id="new-review-link">Review link “{link.name}” created</h2>
      <p>
        Send this address to your client. Copy it now: it is shown only this once. It works until{' '}
        {whenUtc(link.expiresAt)}.
      </p>
      <p class="secret">
        <input
          id="review-link-url"
          data-testid="new-review-link"
          aria-label="Review link address"
          readonly
          value={link.url}
          size={60}
        />{' '}
        <button type="button" class="btn btn-secondary" data-copy="review-link-url" hidden>
          Copy
        </button>
      </p>
      <ClientScript page="copy" />
    </section>
  )
}

async function render(
  c: Context<DashboardEnv>,
  state: { created?: CreatedReviewLink; notice?: string; error?: string; values?: Record<string, string> } = {},
  status: 200 | 400 | 404 = 200,
) {
  const { member, csrfToken, deps } = c.var
  const manager = canManage(member.role)
  const caller = dashboardCaller(c)
  const links = manager ? await listReviewLinks(deps, caller) : []
  const groups = manager ? await reviewLinkGroups(deps, caller) : []
  const v = state.values ?? {}
  return c.html(
    <SettingsPage title="Review links" section="/review-links" member={member} csrfToken={csrfToken}>
      <p class="muted">
        A review link shows the upcoming posts of one account group to someone without an account, with their network
        previews; they can approve a post in review or ask for changes after giving their name.
      </p>
      <Message kind="notice" text={state.notice} />
      <Message kind="error" text={state.error} />
      {state.created ? <CreatedLink link={state.created} /> : null}
      {manager ? (
        <>
          {groups.length === 0 ? (
            <p>Create an account group first: a review link shows the posts of one group.</p>
          ) : (
            <form method="post" action={workspacePage(member, '/settings/review-links')}>
              <Csrf token={csrfToken} />
              <label for="review-link-group">Account group</label>
              <select id="review-link-group" name="groupId">
                {groups.map((g) => (
                  <option value={g.id} selected={v.groupId === g.id}>
                    {g.name}
                  </option>
                ))}
              </select>
              <Field name="name" label="Link name (who it is for)" value={v.name} />
              <Field
                name="expiresInDays"
                label={`Valid for (days, ${REVIEW_LINK_DAYS.min} to ${REVIEW_LINK_DAYS.max})`}
                type="number"
                value={v.expiresInDays ?? String(REVIEW_LINK_DAYS.default)}
              />
              <button type="submit">Create review link</button>
            </form>
          )}
          <ListTable caption="Review links" columns={['Name', 'Group', 'Created by', 'Expires', 'Last used', 'State']}>
            {links.map((l) => (
              <tr>
                <td data-label="Name">{l.name}</td>
                <td data-label="Group">{l.groupName}</td>
                <td data-label="Created by">{l.createdBy.name}</td>
                <td data-label="Expires">{whenUtc(l.expiresAt)}</td>
                <td data-label="Last used">{whenUtc(l.lastUsedAt)}</td>
                <td data-label="State">
                  {STATE_WORDS[l.state]}
                  {l.state === 'active' ? (
                    <ActionButton
                      action={workspacePage(member, `/settings/review-links/${l.id}/revoke`)}
                      csrfToken={csrfToken}
                      class="danger"
                      label={`Revoke ${l.name}`}
                    >
                      Revoke
                    </ActionButton>
                  ) : null}
                </td>
              </tr>
            ))}
          </ListTable>
        </>
      ) : null}
    </SettingsPage>,
    status,
  )
}

/** Registers `/settings/review-links` (GET, POST) and `/settings/review-links/{id}/revoke` (POST). */
export function registerReviewLinkPages(app: Hono<DashboardEnv>): void {
  app.get('/settings/review-links', (c) => render(c))

  app.post('/settings/review-links', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const fields = await formFields(c)
    const days = Number(fields.expiresInDays ?? REVIEW_LINK_DAYS.default)
    try {
      const created = await createReviewLink(c.var.deps, dashboardCaller(c), {
        groupId: fields.groupId ?? '',
        name: fields.name ?? '',
        expiresInDays: days,
        baseUrl: c.var.deps.settings.publicUrl ?? new URL(c.req.url).origin,
      })
      return render(c, { created })
    } catch (err) {
      if (!(err instanceof AppError) || (err.code !== 'invalid_request' && err.code !== 'not_found')) throw err
      return render(c, { error: err.message, values: fields }, err.code === 'not_found' ? 404 : 400)
    }
  })

  app.post('/settings/review-links/:linkId/revoke', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    try {
      await revokeReviewLink(c.var.deps, dashboardCaller(c), c.req.param('linkId'))
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'not_found') throw err
      return render(c, { error: 'No review link with that id in this workspace.' }, 404)
    }
    return render(c, { notice: 'Review link revoked: its page says so from now on.' })
  })
}
