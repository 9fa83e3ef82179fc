/**
 * Each target of a post, as a card: account and network, status in words, permalink, the error
 * with what to do about it and its retry, and the figures once collected (or when they will be).
 */
import type { PostMetric } from '../../domain/rules/schema'
import type { TargetMetrics } from '../../services/analytics/post-metrics'
import type { PostRecord, TargetRecord } from '../../services/posts/record'
import { CsrfField } from './shared'
import { NetworkMark, networkName, StatusBadge } from '../ui'
import { errorAction, STATUS_LABELS, targetStatusText, type Wording, zonedText } from './post-wording'

export interface TargetsProps {
  post: PostRecord
  wording: Wording
  metrics: Map<string, TargetMetrics>
  csrfToken: string
  /** The post page's address plus a path (`/retry`). */
  url(path?: string): string
  /** The accounts page (to reconnect). */
  accountsUrl: string
}

const METRIC_LABELS: Record<PostMetric, string> = {
  likes: 'Likes',
  comments: 'Comments',
  shares: 'Shares',
  saves: 'Saves',
  views: 'Views',
  clicks: 'Clicks',
  impressions: 'Impressions',
  reach: 'Reach',
}

const number = (v: number) => new Intl.NumberFormat('en-GB').format(v)
const figureText = (v: number | null | undefined) => (v === null || v === undefined ? '–' : number(v))

/** The target's figures, or why there are none yet and when they come. */
export function TargetFigures({ m, timeZone }: { m: TargetMetrics | undefined; timeZone: string }) {
  if (!m) return null
  if (m.reported.length === 0) return <p class="muted">This network reports no figures per post.</p>
  const next = m.nextCollectionAt ? zonedText(m.nextCollectionAt, timeZone) : null
  if (!m.latest) {
    return (
      <p class="muted post-figures-empty">
        No figures yet: they are first collected a few minutes after publishing, then hourly for a day, daily for a week
        and weekly until 30 days.
      </p>
    )
  }
  const f = m.latest.figures
  return (
    <div class="post-figures">
      <dl class="post-metrics">
        {m.reported.map((k) => (
          <div>
            <dt>{METRIC_LABELS[k]}</dt>
            <dd>{figureText(f[k])}</dd>
          </div>
        ))}
        {m.latest.engagement !== null ? (
          <div class="post-metric-total">
            <dt>Engagement</dt>
            <dd>{number(m.latest.engagement)}</dd>
          </div>
        ) : null}
      </dl>
      <p class="muted">
        Collected {zonedText(m.latest.collectedAt, timeZone)}
        {next ? `; next collection from ${next}` : '; these are the final figures'}.
      </p>
    </div>
  )
}

function TargetError({ t, p }: { t: TargetRecord; p: TargetsProps }) {
  const what = errorAction(t)
  if (!t.error || !what) return null
  return (
    <div class={t.status === 'FAILED' ? 'post-target-error' : 'post-target-warning'}>
      <p>
        <strong>{t.status === 'FAILED' ? 'Error: ' : 'Last attempt: '}</strong>
        {t.error.message}
      </p>
      <p>{what.action}</p>
      <div class="post-target-actions">
        {what.reconnect ? <a href={p.accountsUrl}>Reconnect the account</a> : null}
        {t.status === 'FAILED' ? (
          <form method="post" action={p.url('/retry')}>
            <CsrfField token={p.csrfToken} />
            <input type="hidden" name="targetId" value={t.id} />
            <button type="submit" aria-label={`Retry ${p.wording.label(t)}`}>
              Retry
            </button>
          </form>
        ) : null}
      </div>
    </div>
  )
}

function TargetCard({ t, p }: { t: TargetRecord; p: TargetsProps }) {
  return (
    <li class={`post-target post-target-${t.status.toLowerCase()}`} id={`target-${t.id}`} data-platform={t.platform}>
      <div class="post-target-head">
        <span class="post-target-name">
          <NetworkMark platform={t.platform} />
          {p.wording.label(t)}
        </span>
        <StatusBadge status={t.status}>{STATUS_LABELS[t.status] ?? t.status}</StatusBadge>
      </div>
      <p class="post-target-status">{targetStatusText(p.post, t, p.wording)}</p>
      {t.permalink ? (
        <p class="post-permalink">
          <a href={t.permalink}>View it on {networkName(t.platform)}</a>
        </p>
      ) : null}
      <TargetError t={t} p={p} />
      {t.attempts > 1 ? <p class="muted">{t.attempts} attempts.</p> : null}
      <TargetFigures m={p.metrics.get(t.id)} timeZone={p.wording.timeZone} />
    </li>
  )
}

/** The targets section: one card per account the post goes to. */
export function PostTargets(p: TargetsProps) {
  return (
    <section class="post-section" aria-labelledby="post-targets-title">
      <h2 id="post-targets-title">Where it goes</h2>
      <ul class="post-targets">
        {p.post.targets.map((t) => (
          <TargetCard t={t} p={p} />
        ))}
      </ul>
    </section>
  )
}

/** "@name on Network": how a target is named everywhere on the page. */
export const targetLabel =
  (names: Map<string, string>) =>
  (t: TargetRecord): string =>
    `${names.get(t.accountId) ?? 'a removed account'} on ${networkName(t.platform)}`
