/**
 * The crops of an image (`/media/{id}/canvases`): how the picture is cut for each canvas the networks
 * recommend, before a post uses it. "Make the crops" runs the variants service of
 * `POST /v1/media/{id}/variants` (all four canvases, cover or contain, smart or centre); the crops are
 * library files, so the composer's media picker offers them next to the original.
 */
import type { Hono } from 'hono'
import { CANVASES, RULES } from '../../domain/rules/index'
import { CANVAS_NAMES } from '../../domain/rules/schema-names'
import { PLATFORM_IDS } from '../../domain/vocabulary'
import { getAsset, listAssets } from '../../services/media/assets'
import { createVariants } from '../../services/media/variants'
import { type DashboardEnv, workspacePage } from '../env'
import { Layout } from '../layout'
import { back, CsrfField, frame, Notice, orNotFound, refusalOf } from './shared'
import { permitted } from '../workspace'

/** For each canvas, the networks whose recommended sizes name it. */
const NETWORKS_BY_CANVAS = Object.fromEntries(
  CANVAS_NAMES.map((canvas) => [
    canvas,
    PLATFORM_IDS.filter((p) => RULES[p].recommended.some((r) => r.canvas === canvas)).map((p) => RULES[p].name),
  ]),
)

export function registerCanvases(app: Hono<DashboardEnv>): void {
  app.get('/media/:mediaId/canvases', permitted('write'), (c) =>
    orNotFound(c, async () => {
      const { member, csrfToken } = frame(c)
      const { db } = c.var.deps
      const source = await getAsset(db, member.workspaceId, c.req.param('mediaId'))
      const crops = (await listAssets(db, member.workspaceId)).filter((a) => a.sourceId === source.id)
      return c.html(
        <Layout title="Crops" member={member} csrfToken={csrfToken} current="media">
          <h1>Crops of {source.altText ?? source.id}</h1>
          <Notice c={c} />
          {source.type === 'IMAGE' ? <img src={source.url} alt={source.altText ?? ''} class="crop-source" /> : null}
          <form method="post" action={workspacePage(member, `/media/${source.id}/canvases`)} class="inline">
            <CsrfField token={csrfToken} />
            <label for="fit">Fit</label>
            <select name="fit" id="fit">
              <option value="cover">Fill the canvas (crop)</option>
              <option value="contain">Show it whole (pad)</option>
            </select>
            <label for="crop">Crop</label>
            <select name="crop" id="crop">
              <option value="smart">Keep faces and detail in frame</option>
              <option value="centre">From the middle</option>
            </select>
            <button type="submit">Make the crops</button>
          </form>
          <ul class="media-grid crops">
            {CANVAS_NAMES.map((canvas) => {
              const { width, height } = CANVASES[canvas]
              const made = crops.filter((a) => a.width === width && a.height === height)
              return (
                <li id={`canvas-${canvas}`}>
                  <h2>
                    {canvas} ({width}x{height})
                  </h2>
                  <p class="muted">Recommended by: {NETWORKS_BY_CANVAS[canvas]!.join(', ') || 'no network'}</p>
                  {made.length === 0 ? <p>Not made yet.</p> : null}
                  {made.map((a) => (
                    <figure>
                      <img src={a.url} alt={`${canvas} crop: ${a.altText ?? ''}`} width={160} />
                      <figcaption>
                        <code>{a.id}</code>
                      </figcaption>
                    </figure>
                  ))}
                </li>
              )
            })}
          </ul>
          <p>
            <a href={workspacePage(member, '/compose')}>Compose a post</a> (the crops are in its media list) or{' '}
            <a href={workspacePage(member, '/media')}>back to the library</a>.
          </p>
        </Layout>,
      )
    }),
  )

  app.post('/media/:mediaId/canvases', permitted('write'), (c) =>
    orNotFound(c, async () => {
      const { member } = frame(c)
      const id = c.req.param('mediaId')
      const form = await c.req.parseBody()
      const fit = form.fit === 'contain' ? 'contain' : 'cover'
      const crop = form.crop === 'centre' ? 'centre' : 'smart'
      const page = workspacePage(member, `/media/${id}/canvases`)
      await getAsset(c.var.deps.db, member.workspaceId, id)
      try {
        await createVariants(c.var.deps, member.workspaceId, id, { formats: [...CANVAS_NAMES], fit, crop })
      } catch (err) {
        return back(c, page, { problem: refusalOf(err).message })
      }
      return back(c, page, { notice: 'Crops made: each is a file of the library now.' })
    }),
  )
}
