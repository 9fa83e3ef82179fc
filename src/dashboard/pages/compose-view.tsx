/** The composer's markup: accounts, caption with per-network counters and overrides, options, media, actions. */
import { ClientScript } from '../assets/client-assets'
import { RULES, THREAD_PLATFORMS } from '../../domain/rules/index'
import { VIDEO_NET_PRIVACY_LEVELS } from '../../domain/rules/schema'
import { POST_TYPES, type PlatformId } from '../../domain/vocabulary'
import type { AccountRecord } from '../../services/accounts'
import type { listAccountBoards } from '../../services/boards'
import type { MediaAsset } from '../../services/media-assets'
import { PART_SEPARATOR, type ComposeValues } from './compose-form'
import { CsrfField } from './shared'

/** Per pinboard account: its boards, or why they could not be listed. */
export type BoardChoices = Record<string, Awaited<ReturnType<typeof listAccountBoards>> | string>

export interface ComposeViewProps {
  action: string
  checkUrl: string
  uploadUrl: string
  registerUrl: string
  /** The library's address: an image's crops are at `{mediaUrl}/{id}/canvases`. */
  mediaUrl: string
  csrfToken: string
  timeZone: string
  accounts: AccountRecord[]
  boards: BoardChoices
  media: MediaAsset[]
  values: ComposeValues
  errors: Record<string, string[]>
  editing: boolean
}

/** The problems of one form control, in a list the control points at (`aria-describedby`). */
export const FieldErrors = ({ field, errors }: { field: string; errors: Record<string, string[]> }) => (
  <ul class="field-errors" id={`errors-${field}`} data-field-errors={field} aria-live="polite">
    {(errors[field] ?? []).map((m) => (
      <li>{m}</li>
    ))}
  </ul>
)

const platformLabel = (p: PlatformId) => `${p} (${RULES[p].name})`

export function ComposeView(p: ComposeViewProps) {
  const v = p.values
  const platforms = [...new Set(p.accounts.map((a) => a.platform))]
  const threads = platforms.filter((x) => THREAD_PLATFORMS.includes(x))
  const has = (pred: (x: PlatformId) => boolean) => platforms.some(pred)
  const byPlatform = (x: PlatformId) => p.accounts.filter((a) => a.platform === x)
  return (
    <form method="post" action={p.action} class="composer" id="composer" data-check={p.checkUrl}>
      <CsrfField token={p.csrfToken} />
      <FieldErrors field="post" errors={p.errors} />
      <fieldset>
        <legend>Accounts</legend>
        {p.accounts.length === 0 ? <p>No account is connected yet.</p> : null}
        {p.accounts.map((a) => (
          <div class="check">
            <input
              type="checkbox"
              name="accountIds"
              value={a.id}
              id={`account-${a.id}`}
              checked={v.accountIds.includes(a.id)}
              aria-describedby="errors-accountIds"
            />
            <label for={`account-${a.id}`}>
              {a.username} <span class="muted">{platformLabel(a.platform)}</span>
              {a.status !== 'ACTIVE' ? <span class="badge badge-failed">{a.status}</span> : null}
            </label>
          </div>
        ))}
        <FieldErrors field="accountIds" errors={p.errors} />
      </fieldset>
      <div class="field">
        <label for="type">Format</label>
        <select name="type" id="type" aria-describedby="errors-type">
          {POST_TYPES.map((t) => (
            <option value={t} selected={v.type === t}>
              {t}
            </option>
          ))}
        </select>
        <FieldErrors field="type" errors={p.errors} />
      </div>
      <div class="field">
        <label for="caption">Caption</label>
        <textarea name="caption" id="caption" rows={6} aria-describedby="counters errors-caption">
          {v.caption}
        </textarea>
        <ul class="counters" id="counters" aria-live="polite" aria-label="Length per network">
          {platforms.map((x) => (
            <li id={`count-${x}`} data-platform={x}>
              {x}: <output>-</output>
            </li>
          ))}
        </ul>
        <FieldErrors field="caption" errors={p.errors} />
      </div>
      <details open={Object.keys(v.overrides).length > 0}>
        <summary>Caption per network (overrides)</summary>
        {platforms.map((x) => (
          <div class="field">
            <label for={`override-${x}`}>Caption for {platformLabel(x)}</label>
            <textarea name={`override.${x}`} id={`override-${x}`} rows={3} aria-describedby={`errors-override-${x}`}>
              {v.overrides[x] ?? ''}
            </textarea>
            <FieldErrors field={`override-${x}`} errors={p.errors} />
          </div>
        ))}
      </details>
      {threads.length > 0 ? (
        <div class="field">
          <label for="threadParts">
            Thread parts ({threads.join(', ')}): one part per block, blocks separated by a line with {PART_SEPARATOR}
          </label>
          <textarea name="threadParts" id="threadParts" rows={4} aria-describedby="errors-threadParts">
            {v.threadParts}
          </textarea>
          <FieldErrors field="threadParts" errors={p.errors} />
        </div>
      ) : null}
      <fieldset>
        <legend>Network options</legend>
        {has((x) => RULES[x].options.firstComment !== null) ? (
          <TextField
            name="firstComment"
            label="First comment (photo network)"
            value={v.firstComment}
            errors={p.errors}
          />
        ) : null}
        {has((x) => RULES[x].options.replyToMicropostId) ? (
          <TextField
            name="replyToMicropostId"
            label="Reply to post (id or URL)"
            value={v.replyToMicropostId}
            errors={p.errors}
          />
        ) : null}
        {has((x) => RULES[x].options.quoteMicropostId) ? (
          <TextField
            name="quoteMicropostId"
            label="Quote post (id or URL)"
            value={v.quoteMicropostId}
            errors={p.errors}
          />
        ) : null}
        {has((x) => RULES[x].options.linkUrl !== null) ? (
          <TextField
            name="linkUrl"
            label="Link (card or pin destination)"
            value={v.linkUrl}
            errors={p.errors}
            type="url"
          />
        ) : null}
        {has((x) => x === 'PINBOARD_NET') ? (
          <TextField name="pinTitle" label="Pin title" value={v.pinTitle} errors={p.errors} />
        ) : null}
        {byPlatform('PINBOARD_NET').map((a) => (
          <BoardField account={a} choices={p.boards[a.id]} value={v.boards[a.id] ?? ''} errors={p.errors} />
        ))}
        {byPlatform('SHORTVIDEO_NET').map((a) => (
          <div class="field">
            <label for={`privacy-${a.id}`}>Who can watch on {a.username} (short-video)</label>
            <select name={`privacy.${a.id}`} id={`privacy-${a.id}`} aria-describedby={`errors-privacy-${a.id}`}>
              <option value="">Default (only me)</option>
              {VIDEO_NET_PRIVACY_LEVELS.map((level) => (
                <option value={level} selected={v.privacy[a.id] === level}>
                  {level}
                </option>
              ))}
            </select>
            <FieldErrors field={`privacy-${a.id}`} errors={p.errors} />
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend>Media</legend>
        <ul class="media-picker" id="media-picker">
          {p.media.map((m) => (
            <li>
              <input
                type="checkbox"
                name="mediaIds"
                value={m.id}
                id={`media-${m.id}`}
                checked={v.mediaIds.includes(m.id)}
              />
              <label for={`media-${m.id}`}>
                {m.type === 'IMAGE' ? <img src={m.url} alt={m.altText ?? ''} width={80} height={80} /> : null}
                <span>{m.altText ?? m.id}</span> <span class="muted">{m.type}</span>
              </label>
              {m.type === 'IMAGE' && !m.sourceId ? (
                <a href={`${p.mediaUrl}/${m.id}/canvases`} target="_blank" rel="noopener">
                  Crops (new tab)
                </a>
              ) : null}
            </li>
          ))}
        </ul>
        <FieldErrors field="mediaIds" errors={p.errors} />
        <UploadControl uploadUrl={p.uploadUrl} registerUrl={p.registerUrl} />
      </fieldset>
      <div class="field">
        <label for="scheduledAt">Time for "Schedule" ({p.timeZone})</label>
        <input
          type="datetime-local"
          name="scheduledAt"
          id="scheduledAt"
          value={v.scheduledAt}
          aria-describedby="errors-scheduledAt"
        />
        <FieldErrors field="scheduledAt" errors={p.errors} />
      </div>
      <div class="actions">
        <button type="submit" name="action" value="draft">
          Save as draft
        </button>
        <button type="submit" name="action" value="schedule">
          Schedule
        </button>
        <button type="submit" name="action" value="queue">
          Add to queue
        </button>
        <button type="submit" name="action" value="now">
          Publish now
        </button>
      </div>
      <ClientScript page="composer" />
      <ClientScript page="upload" />
    </form>
  )
}

function TextField(props: {
  name: string
  field?: string
  label: string
  value: string
  errors: Record<string, string[]>
  type?: string
}) {
  const field = props.field ?? props.name
  return (
    <div class="field">
      <label for={field}>{props.label}</label>
      <input
        type={props.type ?? 'text'}
        name={props.name}
        id={field}
        value={props.value}
        aria-describedby={`errors-${field}`}
      />
      <FieldErrors field={field} errors={props.errors} />
    </div>
  )
}

/** The board of one pinboard account: chosen from its boards, or typed as an id when they cannot be listed. */
function BoardField(props: {
  account: AccountRecord
  choices: BoardChoices[string] | undefined
  value: string
  errors: Record<string, string[]>
}) {
  const { account: a, choices } = props
  const field = `board-${a.id}`
  if (typeof choices === 'string' || choices === undefined) {
    return (
      <>
        <TextField
          name={`board.${a.id}`}
          field={field}
          label={`Board id for ${a.username}`}
          value={props.value}
          errors={props.errors}
        />
        <p class="hint">
          The boards of {a.username} could not be listed: {choices ?? 'the account is not connected.'}
        </p>
      </>
    )
  }
  const known = choices.some((b) => b.id === props.value)
  return (
    <div class="field">
      <label for={field}>Board for {a.username}</label>
      <select name={`board.${a.id}`} id={field} aria-describedby={`errors-${field}`}>
        <option value="">Choose a board</option>
        {choices.map((b) => (
          <option value={b.id} selected={b.id === props.value}>
            {b.name} ({b.privacy.toLowerCase()})
          </option>
        ))}
        {props.value && !known ? (
          <option value={props.value} selected>
            {props.value} (no longer listed)
          </option>
        ) : null}
      </select>
      <FieldErrors field={field} errors={props.errors} />
    </div>
  )
}

/** A file input uploading straight to storage (upload.js), then registering the file in the library. */
export const UploadControl = (p: { uploadUrl: string; registerUrl: string }) => (
  <div class="upload" data-upload={p.uploadUrl} data-register={p.registerUrl}>
    <label for="upload-file">Upload an image or video</label>
    <input type="file" id="upload-file" accept="image/*,video/*" />
    <label for="upload-alt">Alt text for the upload</label>
    <input type="text" id="upload-alt" maxlength={1500} />
    <label for="upload-progress">Upload progress</label>
    <progress id="upload-progress" max={100} value={0}></progress>
    <p id="upload-status" role="status"></p>
  </div>
)
