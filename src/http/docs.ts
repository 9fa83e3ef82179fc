import { Hono } from 'hono'
import type { AppEnv } from './context'

/**
 * Only our own origin: the page, its script and its stylesheet are all served by this app. Inline
 * styles stay allowed because Swagger UI sets `style` attributes; inline scripts do not.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const page = (specPath: string, title: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui" data-spec-url="${specPath}"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`

// No validator badge: Swagger UI would otherwise load it from a third-party site.
const INIT_SCRIPT = `(() => {
  const root = document.getElementById('swagger-ui')
  window.ui = SwaggerUIBundle({ url: root.dataset.specUrl, domNode: root, deepLinking: true, validatorUrl: null })
})()
`

/**
 * The interactive reference (Swagger UI from swagger-ui-dist), entirely from this app: `/docs` and
 * the three files its page loads, under a Content-Security-Policy that allows no other origin.
 */
export function docsSite(specPath: string, title: string): Hono<AppEnv> {
  const site = new Hono<AppEnv>()
  const cache = 'public, max-age=3600'
  site.use('*', async (c, next) => {
    await next()
    c.header('Content-Security-Policy', DOCS_CSP)
    c.header('X-Content-Type-Options', 'nosniff')
  })
  site.get('/', (c) => c.html(page(specPath, title)))
  site.get('/init.js', (c) =>
    c.body(INIT_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': cache }),
  )
  site.get('/swagger-ui-bundle.js', async (c) => {
    const { script } = await c.var.deps.docsAssets.load()
    return c.body(script, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': cache })
  })
  site.get('/swagger-ui.css', async (c) => {
    const { stylesheet } = await c.var.deps.docsAssets.load()
    return c.body(stylesheet, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': cache })
  })
  return site
}
