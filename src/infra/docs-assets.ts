/**
 * The browser files of the interactive reference at `/docs` (Swagger UI, from the swagger-ui-dist
 * package), served by the app itself so the page loads nothing from another origin. Node reads them
 * from node_modules (runtime/node-docs-assets.ts); the Worker bundles them as text modules
 * (runtime/worker-docs-assets.ts, wrangler.toml `rules`).
 */
export interface DocsAssets {
  load(): Promise<{ script: string; stylesheet: string }>
}
