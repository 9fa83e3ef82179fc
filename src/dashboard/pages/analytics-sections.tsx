/**
 * The analytics page's sections: the period's totals, the per-network comparison, the top posts
 * linking to their pages, and the empty states that say when figures appear (the collection
 * schedule of `services/analytics/engagement.ts`).
 */
import type { Analytics } from '../../services/analytics/read'
import { workspacePage } from '../env'
import type { DashboardMember } from '../env'
import type { NetworkFigure, PeriodTotals } from './analytics-summary'
import { NetworkMark, networkClass, networkName } from '../ui'
import { ZonedTime } from './shared'

const number = (v: number | null) => (v === null ? '–' : new Intl.NumberFormat('en-GB').format(v))
const signed = (v: number | null) => (v === null ? '–' : `${v > 0 ? '+' : v < 0 ? '−' : ''}${number(Math.abs(v))}`)

/** When post figures appear, from the collection schedule. */
export const POST_FIGURES_WHEN =
  'Figures of a published post are first collected within a few minutes of publishing, then every hour for ' +
  'its first day, every day until day 7 and every week until day 30.'

/** When follower figures appear. */
export const FOLLOWERS_WHEN =
  'Follower counts are collected once a day per account, the first within minutes of connecting it.'

/** The period's totals as a row of cards. */
export function Totals({ totals, days }: { totals: PeriodTotals; days: number }) {
  const items: Array<[string, string, string | null]> = [
    ['Posts published', number(totals.posts), `per account, in the last ${days} days`],
    ['Engagement', number(totals.engagement), 'likes, comments, shares and saves'],
    ['Views', number(totals.views), 'where the network reports them'],
    [
      'Followers',
      number(totals.followers),
      totals.followerChange === null ? null : `${signed(totals.followerChange)} in the period`,
    ],
  ]
  return (
    <section aria-labelledby="totals-title" class="analytics-section">
      <h2 id="totals-title" class="visually-hidden">
        Totals for the last {days} days
      </h2>
      <dl class="analytics-totals">
        {items.map(([label, value, hint]) => (
          <div class="analytics-total">
            <dt>{label}</dt>
            <dd class="analytics-total-value">{value}</dd>
            {hint ? <dd class="analytics-total-hint">{hint}</dd> : null}
          </div>
        ))}
      </dl>
    </section>
  )
}

/** Each network's engagement as a bar against the best one, with its posts and average. */
export function NetworkComparison({ networks }: { networks: NetworkFigure[] }) {
  const best = Math.max(1, ...networks.map((n) => n.engagement ?? 0))
  return (
    <section aria-labelledby="networks-title" class="analytics-section">
      <h2 id="networks-title">By network</h2>
      {networks.length === 0 ? (
        <p class="empty-note">No post published in this period. {POST_FIGURES_WHEN}</p>
      ) : (
        <ul class="network-bars">
          {networks.map((n) => (
            <li class={`network-bar ${networkClass(n.platform)}`} data-platform={n.platform}>
              <span class="network-bar-name">
                <NetworkMark platform={n.platform} />
                {networkName(n.platform)}
              </span>
              <svg class="network-bar-track" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
                <rect class="network-bar-bg" x="0" y="0" width="100" height="10" rx="2" />
                <rect
                  class="network-bar-fill"
                  x="0"
                  y="0"
                  width={Math.max(n.engagement ? 1 : 0, Math.round(((n.engagement ?? 0) / best) * 100))}
                  height="10"
                  rx="2"
                />
              </svg>
              <span class="network-bar-figures">
                {n.engagement === null ? 'no engagement reported' : `${number(n.engagement)} engagement`} ·{' '}
                {n.posts === 1 ? '1 post' : `${n.posts} posts`}
                {n.average === null ? '' : ` · ${number(n.average)} per post`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** The period's most engaging posts, each linking to its post page. */
export function TopPosts(props: {
  analytics: Analytics
  top: Analytics['recentPosts']
  /** The caption's start per post id. */
  captions: Map<string, string>
  member: DashboardMember
}) {
  const names = new Map(props.analytics.accounts.map((a) => [a.accountId, a.username]))
  return (
    <section aria-labelledby="top-title" class="analytics-section">
      <h2 id="top-title">Top posts</h2>
      {props.top.length === 0 ? (
        <p class="empty-note">
          {props.analytics.recentPosts.length === 0
            ? 'No post published in this period yet.'
            : 'Posts of this period have no engagement figures yet.'}{' '}
          {POST_FIGURES_WHEN}
        </p>
      ) : (
        <section class="table-scroll" tabindex={0} aria-labelledby="top-title">
          <table class="top-posts cards-on-phone">
            <caption class="visually-hidden">Most engaging posts of the period</caption>
            <thead>
              <tr>
                <th scope="col">Post</th>
                <th scope="col">Account</th>
                <th scope="col">Published</th>
                <th scope="col" class="num">
                  Engagement
                </th>
                <th scope="col" class="num">
                  Views
                </th>
              </tr>
            </thead>
            <tbody>
              {props.top.map((p) => (
                <tr>
                  <td data-label="Post">
                    <a href={workspacePage(props.member, `/posts/${p.postId}`)}>
                      {props.captions.get(p.postId) || 'Untitled post'}
                    </a>
                  </td>
                  <td data-label="Account">
                    <span class="top-post-account">
                      <NetworkMark platform={p.platform} size="small" />
                      {names.get(p.accountId) ?? 'removed account'}
                      <span class="muted">{networkName(p.platform)}</span>
                    </span>
                  </td>
                  <td data-label="Published">
                    <ZonedTime at={p.publishedAt} timeZone={props.analytics.timezone} />
                  </td>
                  <td class="num" data-label="Engagement">
                    {number(p.engagement)}
                  </td>
                  <td class="num" data-label="Views">
                    {number(p.metrics.views)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  )
}
