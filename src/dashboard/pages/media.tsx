/**
 * The media library (`/media`): the workspace's files by folder with their alt text, and uploads
 * straight to storage through the same presigned-upload and register services as
 * `POST /v1/media/uploads` and `POST /v1/media` (the JSON endpoints upload.js calls); each file's alt
 * text and folder edited through the service of `PATCH /v1/media/{id}`.
 */
import { ClientScript } from '../assets/client-assets'
import type { Hono } from 'hono'
import { CreateUploadSchema, RegisterMediaSchema, UpdateMediaSchema } from '../../schemas/media'
import { listAssets, listFolders, registerAsset } from '../../services/media/assets'
import { editAsset } from '../../services/media/edit'
import { createUpload } from '../../services/media/uploads'
import { type DashboardEnv, workspacePage } from '../env'
import { Layout } from '../layout'
import { EmptyState, PageHeader } from '../ui'
import { UploadControl } from './compose-media'
import { AssetEditor } from './media-editor'
import { back, frame, isNotFound, Notice, notFoundPage, type PageContext, refusalOf } from './shared'
import { permitted } from '../workspace'

/** A script's JSON request: the body parsed with the API's schema, the service's answer or its refusal. */
async function jsonAction<T>(
  c: PageContext,
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { message: string } } },
  run: (input: T) => Promise<unknown>,
) {
  const raw: unknown = await c.req.json().catch(() => null)
  const parsed = schema.safeParse(raw)
  if (!parsed.success) return c.json({ error: 'The upload request is not valid.' }, 400)
  try {
    return c.json(await run(parsed.data), 200)
  } catch (err) {
    return c.json({ error: refusalOf(err).message }, 422)
  }
}

/** Registers the media library and the upload endpoints of its script. */
export function registerMedia(app: Hono<DashboardEnv>): void {
  app.get('/media', async (c) => {
    const { member, csrfToken } = frame(c)
    const { db } = c.var.deps
    const folders = await listFolders(db, member.workspaceId)
    const wanted = c.req.query('folderId')
    const folderId = folders.some((f) => f.id === wanted) ? wanted : undefined
    const assets = await listAssets(db, member.workspaceId, { folderId })
    const folderName = new Map(folders.map((f) => [f.id, f.name]))
    return c.html(
      <Layout title="Media" member={member} csrfToken={csrfToken} current="media">
        <PageHeader
          title="Media library"
          description="Pictures and videos for your posts, with the alt text each network receives."
        />
        <form method="get" action={workspacePage(member, '/media')} class="filter-form">
          <label for="folderId">Folder</label>
          <select name="folderId" id="folderId">
            <option value="">All files</option>
            {folders.map((f) => (
              <option value={f.id} selected={f.id === folderId}>
                {f.name}
              </option>
            ))}
          </select>
          <button type="submit">Show</button>
        </form>
        <input type="hidden" name="_csrf" value={csrfToken} />
        <UploadControl
          uploadUrl={workspacePage(member, '/media/uploads')}
          registerUrl={workspacePage(member, '/media/register')}
        />
        <Notice c={c} />
        {assets.length === 0 ? (
          <EmptyState title="No media here yet">Upload a picture or a video above, or from the composer.</EmptyState>
        ) : null}
        <ul class="media-grid">
          {assets.map((m) => (
            <li id={`asset-${m.id}`} class="media-card">
              {m.type === 'IMAGE' ? (
                <img src={m.url} alt={m.altText ?? ''} width={160} height={160} loading="lazy" />
              ) : (
                <span class="media-placeholder">{m.type.toLowerCase()}</span>
              )}
              <dl class="facts">
                <dt>Alt text</dt>
                <dd>{m.altText ?? '(none)'}</dd>
                <dt>Type</dt>
                <dd>
                  {m.type} {m.width && m.height ? `${m.width}x${m.height}` : ''}
                </dd>
                <dt>Folder</dt>
                <dd>{m.folderId ? (folderName.get(m.folderId) ?? '-') : '-'}</dd>
                <dt>Id</dt>
                <dd>
                  <code>{m.id}</code>
                </dd>
              </dl>
              {m.type === 'IMAGE' && !m.sourceId ? (
                <a class="action-link" href={workspacePage(member, `/media/${m.id}/canvases`)}>
                  Crops for each network
                </a>
              ) : null}
              <AssetEditor
                asset={m}
                folders={folders}
                action={workspacePage(member, `/media/${m.id}/edit`)}
                csrfToken={csrfToken}
              />
            </li>
          ))}
        </ul>
        <ClientScript page="upload" />
      </Layout>,
    )
  })

  app.post('/media/:mediaId/edit', permitted('write'), async (c) => {
    const { member } = frame(c)
    const form = await c.req.parseBody()
    const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '')
    const newFolder = text('folder').trim()
    const parsed = UpdateMediaSchema.safeParse({
      altText: text('altText'),
      ...(newFolder ? { folder: newFolder } : { folderId: text('folderId') || null }),
    })
    const library = workspacePage(member, '/media')
    if (!parsed.success)
      return back(c, library, { problem: 'Alt text is at most 2,000 characters, a folder name 100.' })
    try {
      await editAsset(c.var.deps, member.workspaceId, c.req.param('mediaId'), parsed.data)
    } catch (err) {
      if (isNotFound(err)) return notFoundPage(c)
      return back(c, library, { problem: refusalOf(err).message })
    }
    return back(c, library, { notice: 'File details saved.' })
  })

  app.post('/media/uploads', permitted('write'), (c) =>
    jsonAction(c, CreateUploadSchema, (input) => createUpload(c.var.deps, c.get('member').workspaceId, input)),
  )
  app.post('/media/register', permitted('write'), (c) =>
    jsonAction(c, RegisterMediaSchema, (input) => registerAsset(c.var.deps, c.get('member').workspaceId, input)),
  )
}
