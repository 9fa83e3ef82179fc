import { createApp, openApiDocument } from '../app'

/**
 * `npm run openapi:write`: prints the OpenAPI document the app serves at `/v1/openapi.json`, for
 * the linter (`npm run lint:openapi`) and for clients' code generators. No database or network is
 * touched: the document is made from the routes' declarations alone.
 */
const app = createApp({
  settings: { maxBodyBytes: 1_048_576, publicUrl: null },
  depsFor: () => {
    throw new Error('The document is written without serving requests.')
  },
  clientIp: () => '127.0.0.1',
})
// The server is relative: wherever the document is served from.
console.log(JSON.stringify(app.getOpenAPI31Document(openApiDocument('/')), null, 2))
