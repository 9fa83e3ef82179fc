/** The form under each file of the library: its alt text and its folder (an existing one, none, or a new name). */
import type { MediaAsset } from '../../services/media/assets'
import { CsrfField } from './shared'

export function AssetEditor(p: {
  asset: MediaAsset
  folders: ReadonlyArray<{ id: string; name: string }>
  action: string
  csrfToken: string
}) {
  const id = p.asset.id
  return (
    <details class="asset-editor">
      <summary>Edit alt text and folder</summary>
      <form method="post" action={p.action}>
        <CsrfField token={p.csrfToken} />
        <div class="field">
          <label for={`alt-${id}`}>Alt text (what the picture shows, for people who cannot see it)</label>
          <textarea name="altText" id={`alt-${id}`} rows={3} maxlength={2000}>
            {p.asset.altText ?? ''}
          </textarea>
        </div>
        <div class="field">
          <label for={`folder-${id}`}>Folder</label>
          <select name="folderId" id={`folder-${id}`}>
            <option value="">No folder</option>
            {p.folders.map((f) => (
              <option value={f.id} selected={f.id === p.asset.folderId}>
                {f.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for={`new-folder-${id}`}>Or a new folder</label>
          <input type="text" name="folder" id={`new-folder-${id}`} maxlength={100} />
        </div>
        <button type="submit">Save</button>
      </form>
    </details>
  )
}
