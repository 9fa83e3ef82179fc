/**
 * The composer's markup: the editor (accounts, caption, overrides as tabs, thread, network options,
 * media, time, actions) beside a live preview per selected account. Everything posts without script;
 * composer.js updates the previews per keystroke and asks the dry run for errors, debounced.
 */
import { THREAD_PLATFORMS } from '../../domain/rules/index'
import { ClientScript } from '../assets/client-assets'
import { POST_TYPES, type PlatformId } from '../../domain/vocabulary'
import type { AccountRecord } from '../../services/accounts/accounts'
import type { MediaAsset } from '../../services/media/assets'
import { type ComposeValues, PART_SEPARATOR } from './compose-form'
import { type BoardChoices, FieldErrors } from './compose-fields'
import { MediaPicker } from './compose-media'
import { NetworkOptions } from './compose-options'
import type { DestinationChoices } from './compose-target-options'
import { networkMark, networkName } from '../client/composer/preview-tree'
import { PreviewColumn, previewAccountsOf, toJsx } from './compose-previews'
import { type ScheduleHints, ScheduleField } from './compose-schedule'
import { CsrfField } from './shared'
import { ComposeActions, type ComposeReview, LabelPicker, type LabelOption } from './compose-review'

export type { BoardChoices } from './compose-fields'
export type { DestinationChoices } from './compose-target-options'

export interface ComposeViewProps {
  action: string
  checkUrl: string
  /** Where the script saves the draft as the member writes (null: no autosave, e.g. a scheduled post). */
  autosaveUrl: string | null
  uploadUrl: string
  registerUrl: string
  /** The library's address: an image's crops are at `{mediaUrl}/{id}/canvases`. */
  mediaUrl: string
  csrfToken: string
  timeZone: string
  accounts: AccountRecord[]
  boards: BoardChoices
  destinations: DestinationChoices
  media: MediaAsset[]
  values: ComposeValues
  errors: Record<string, string[]>
  editing: boolean
  schedule: ScheduleHints
  labels: LabelOption[]
  canCreateLabel: boolean
  review: ComposeReview
}

function AccountPicker({
  accounts,
  chosen,
  errors,
}: {
  accounts: AccountRecord[]
  chosen: string[]
  errors: Record<string, string[]>
}) {
  return (
    <fieldset class="composer-section">
      <legend>Accounts</legend>
      {accounts.length === 0 ? <p class="hint">No account is connected yet.</p> : null}
      <ul class="account-picker">
        {accounts.map((a) => (
          <li class="account-chip" data-platform={a.platform}>
            <input
              type="checkbox"
              name="accountIds"
              value={a.id}
              id={`account-${a.id}`}
              checked={chosen.includes(a.id)}
              aria-describedby="errors-accountIds"
              data-platform={a.platform}
              data-username={a.username}
            />
            <label for={`account-${a.id}`}>
              {toJsx(networkMark(a.platform))}
              <span class="account-chip-text">
                <span class="account-chip-name">{a.username}</span>
                <span class="account-chip-network">{networkName(a.platform)}</span>
              </span>
              {a.status !== 'ACTIVE' ? <span class="badge badge-failed">{a.status.toLowerCase()}</span> : null}
            </label>
          </li>
        ))}
      </ul>
      <FieldErrors field="accountIds" errors={errors} />
    </fieldset>
  )
}

/** One caption per network, as tabs of the selected networks (the script); without it, every box in a list. */
function Overrides({
  platforms,
  values,
  errors,
}: {
  platforms: PlatformId[]
  values: ComposeValues
  errors: Record<string, string[]>
}) {
  const open = Object.keys(values.overrides).length > 0 || platforms.some((x) => errors[`override-${x}`])
  return (
    <details class="composer-section overrides" open={open}>
      <summary>Caption per network (overrides)</summary>
      <p class="hint">Leave a network's box empty to publish the caption above there.</p>
      <div class="override-tabs js-only" role="tablist" aria-label="Networks">
        {platforms.map((x) => (
          <button
            type="button"
            role="tab"
            id={`tab-override-${x}`}
            aria-controls={`panel-override-${x}`}
            aria-selected="false"
            data-platform={x}
            class="override-tab"
          >
            {toJsx(networkMark(x))} {networkName(x)}
            <span class="override-dot" aria-hidden="true"></span>
          </button>
        ))}
      </div>
      {platforms.map((x) => (
        <div
          class="field override-panel"
          id={`panel-override-${x}`}
          data-platform={x}
          role="tabpanel"
          aria-labelledby={`tab-override-${x}`}
        >
          <label for={`override-${x}`}>Caption for {networkName(x)}</label>
          <textarea name={`override.${x}`} id={`override-${x}`} rows={4} aria-describedby={`errors-override-${x}`}>
            {values.overrides[x] ?? ''}
          </textarea>
          <FieldErrors field={`override-${x}`} errors={errors} />
        </div>
      ))}
    </details>
  )
}

export function ComposeView(p: ComposeViewProps) {
  const v = p.values
  const platforms = [...new Set(p.accounts.map((a) => a.platform))]
  const threads = platforms.filter((x) => THREAD_PLATFORMS.includes(x))
  const previewAccounts = previewAccountsOf(p.accounts, v, p.boards, p.media)
  return (
    <form
      method="post"
      action={p.action}
      class="composer"
      id="composer"
      data-check={p.checkUrl}
      data-autosave={p.autosaveUrl ?? undefined}
    >
      <CsrfField token={p.csrfToken} />
      <div class="composer-editor">
        <FieldErrors field="post" errors={p.errors} />
        <a class="preview-jump" href="#previews-title">
          Jump to the previews
        </a>
        <AccountPicker accounts={p.accounts} chosen={v.accountIds} errors={p.errors} />
        <div class="composer-section field caption-field">
          <label for="caption">Caption</label>
          <textarea name="caption" id="caption" rows={7} aria-describedby="counters errors-caption">
            {v.caption}
          </textarea>
          <ul class="counters" id="counters" aria-label="Length per network">
            {platforms.map((x) => {
              const shown = previewAccounts.find((a) => a.account.platform === x)
              const count = shown?.preview.caption
              return (
                <li id={`count-${x}`} data-platform={x} class={count ? (count.over ? 'over' : '') : 'unused'}>
                  {networkName(x)}: <output>{count ? `${count.length} / ${count.limit}` : '-'}</output>
                </li>
              )
            })}
          </ul>
          <FieldErrors field="caption" errors={p.errors} />
        </div>
        <Overrides platforms={platforms} values={v} errors={p.errors} />
        {threads.length > 0 ? (
          <div class="composer-section field" data-platforms={threads.join(' ')}>
            <label for="threadParts">Thread: follow-up posts</label>
            <p class="hint" id="thread-hint">
              Published after the caption on {threads.map(networkName).join(', ')}. One post per block; separate blocks
              with a line holding only {PART_SEPARATOR}.
            </p>
            <textarea name="threadParts" id="threadParts" rows={4} aria-describedby="thread-hint errors-threadParts">
              {v.threadParts}
            </textarea>
            <FieldErrors field="threadParts" errors={p.errors} />
          </div>
        ) : null}
        <NetworkOptions
          accounts={p.accounts}
          platforms={platforms}
          boards={p.boards}
          destinations={p.destinations}
          values={v}
          errors={p.errors}
        />
        <MediaPicker
          media={p.media}
          chosen={v.mediaIds}
          mediaUrl={p.mediaUrl}
          uploadUrl={p.uploadUrl}
          registerUrl={p.registerUrl}
          errors={p.errors}
        />
        <div class="composer-section field">
          <label for="type">Format</label>
          <select name="type" id="type" aria-describedby="errors-type">
            {POST_TYPES.map((t) => (
              <option value={t} selected={v.type === t}>
                {t.charAt(0) + t.slice(1).toLowerCase()}
              </option>
            ))}
          </select>
          <FieldErrors field="type" errors={p.errors} />
        </div>
        <LabelPicker labels={p.labels} values={v} canCreate={p.canCreateLabel} />
        <ScheduleField value={v.scheduledAt} timeZone={p.timeZone} hints={p.schedule} errors={p.errors} />
        <ComposeActions review={p.review} />
      </div>
      <PreviewColumn cards={previewAccounts} />
      <ClientScript page="composer" />
      <ClientScript page="upload" />
    </form>
  )
}
