import script from 'swagger-ui-dist/swagger-ui-bundle.js'
import stylesheet from 'swagger-ui-dist/swagger-ui.css'
import type { DocsAssets } from '../infra/docs-assets'

/** The Worker's copy of the reference's browser files: bundled as text (wrangler.toml `rules`). */
export function workerDocsAssets(): DocsAssets {
  const assets = { script, stylesheet }
  return { load: async () => assets }
}
