/**
 * The composer's media picker: the library as a grid of thumbnails, ticked items first in the order
 * they are published (the form posts `mediaIds` in the grid's order). With the script, a tile can be
 * dragged to a new place, or moved with its "earlier" / "later" buttons from the keyboard.
 */
import type { MediaAsset } from '../../services/media/assets'
import { FieldErrors } from './compose-fields'

/** The library with the chosen items first, in the order chosen. */
export function pickerOrder(media: MediaAsset[], chosen: string[]): MediaAsset[] {
  const picked = chosen.flatMap((id) => media.filter((m) => m.id === id))
  return [...picked, ...media.filter((m) => !chosen.includes(m.id))]
}

const nameOf = (m: MediaAsset) => m.altText ?? m.id

function MediaTile({ m, checked, mediaUrl }: { m: MediaAsset; checked: boolean; mediaUrl: string }) {
  return (
    <li class="media-tile" data-media-id={m.id}>
      <input
        type="checkbox"
        name="mediaIds"
        value={m.id}
        id={`media-${m.id}`}
        checked={checked}
        data-type={m.type}
        data-url={m.url}
        data-alt={m.altText ?? ''}
      />
      <label for={`media-${m.id}`}>
        {m.type === 'IMAGE' ? (
          <img src={m.url} alt={m.altText ?? ''} width={96} height={96} loading="lazy" />
        ) : (
          <span class="media-tile-video" aria-hidden="true">
            Video
          </span>
        )}
        <span class="media-tile-name">{nameOf(m)}</span>
        <span class="visually-hidden">{m.type === 'IMAGE' ? 'image' : 'video'}</span>
      </label>
      <span class="media-tile-order" aria-hidden="true"></span>
      <span class="media-tile-tools">
        <button type="button" class="js-only icon-button" data-move="-1" aria-label={`Move ${nameOf(m)} earlier`}>
          ←
        </button>
        <button type="button" class="js-only icon-button" data-move="1" aria-label={`Move ${nameOf(m)} later`}>
          →
        </button>
        {m.type === 'IMAGE' && !m.sourceId ? (
          <a href={`${mediaUrl}/${m.id}/canvases`} target="_blank" rel="noopener" class="media-tile-crops">
            Crops<span class="visually-hidden"> of {nameOf(m)} (new tab)</span>
          </a>
        ) : null}
      </span>
    </li>
  )
}

export function MediaPicker(p: {
  media: MediaAsset[]
  chosen: string[]
  mediaUrl: string
  uploadUrl: string
  registerUrl: string
  errors: Record<string, string[]>
}) {
  return (
    <fieldset class="composer-section media-section">
      <legend>Media</legend>
      <p class="hint" id="media-hint">
        Tick the images or video to publish; the first is the one most networks show.{' '}
        <span class="js-only">Drag a tile, or use its arrows, to change the order.</span>
      </p>
      {p.media.length === 0 ? <p class="hint">The library is empty: upload a file below.</p> : null}
      <ul class="media-picker" id="media-picker" aria-describedby="media-hint">
        {pickerOrder(p.media, p.chosen).map((m) => (
          <MediaTile m={m} checked={p.chosen.includes(m.id)} mediaUrl={p.mediaUrl} />
        ))}
      </ul>
      <FieldErrors field="mediaIds" errors={p.errors} />
      <UploadControl uploadUrl={p.uploadUrl} registerUrl={p.registerUrl} />
    </fieldset>
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
