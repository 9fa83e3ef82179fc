import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { DocsAssets } from '../infra/docs-assets'

/** Node's copy of the reference's browser files: read from node_modules once, on the first `/docs` visit. */
export function nodeDocsAssets(): DocsAssets {
  let loaded: ReturnType<DocsAssets['load']> | null = null
  const require = createRequire(import.meta.url)
  const read = (spec: string) => readFile(require.resolve(spec), 'utf8')
  return {
    load() {
      loaded ??= Promise.all([
        read('swagger-ui-dist/swagger-ui-bundle.js'),
        read('swagger-ui-dist/swagger-ui.css'),
      ]).then(([script, stylesheet]) => ({ script, stylesheet }))
      loaded.catch(() => (loaded = null))
      return loaded
    },
  }
}
