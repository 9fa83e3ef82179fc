/**
 * The page scripts (src/dashboard/client/<page>.ts), bundled by bin/build-client.js into
 * client-bundles.generated.ts. Each is served twice: at `/app/assets/<page>.<hash>.js`, cached for
 * good (a new build has a new name), which is what pages link; and at `/app/assets/<page>.js`,
 * revalidated by ETag, for anything that knows only the plain name.
 */
import { CLIENT_BUNDLES } from './client-bundles.generated'
import type { DashboardAsset } from './content-assets'

const JAVASCRIPT = 'text/javascript; charset=utf-8'

/** The page scripts by file name, hashed and plain; `immutable` on the hashed names. */
export const CLIENT_ASSETS: Record<string, DashboardAsset> = Object.fromEntries(
  Object.entries(CLIENT_BUNDLES).flatMap(([page, { code, hash }]) => [
    [`${page}.js`, { contentType: JAVASCRIPT, body: code }],
    [`${page}.${hash}.js`, { contentType: JAVASCRIPT, body: code, immutable: true }],
  ]),
)

/** The pages that have a script (src/dashboard/client/<page>.ts). */
export type ClientPage = keyof typeof CLIENT_BUNDLES

/** The address a page links its script at: named by the script's hash, so it can be cached for good. */
export function clientScriptUrl(page: ClientPage): string {
  const bundle = CLIENT_BUNDLES[page]
  if (!bundle) throw new Error(`No client script named ${page} (src/dashboard/client/${page}.ts)`)
  return `/app/assets/${page}.${bundle.hash}.js`
}

/** The `<script>` element loading a page's script (deferred, same origin: the CSP allows nothing else). */
export function ClientScript(props: { page: ClientPage }) {
  return <script src={clientScriptUrl(props.page)} defer></script>
}
