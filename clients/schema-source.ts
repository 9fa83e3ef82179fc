import { fileURLToPath } from 'node:url'
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript'
import { createApp, openApiDocument } from '../src/app'

/**
 * How `clients/typescript/schema.d.ts` is made, shared by `npm run client:generate` (which writes
 * it) and test/clients/typescript-client.test.ts (which fails when the committed file is stale).
 * This is server-side tooling: it builds the app to read its document. The client itself
 * (clients/typescript/) imports nothing from src/.
 */

/** Where the generated types live, relative to the repository root (for messages)... */
export const TYPESCRIPT_SCHEMA_PATH = 'clients/typescript/schema.d.ts'
/** ...and on disk, wherever the command runs from. */
export const TYPESCRIPT_SCHEMA_FILE = fileURLToPath(new URL('./typescript/schema.d.ts', import.meta.url))

/**
 * The OpenAPI document the app serves at `/v1/openapi.json`, made from the routes' declarations
 * alone: no database, network or request is touched. The server URL is relative, so the types
 * do not depend on where the document was made.
 */
export function appOpenApiDocument(): OpenAPI3 {
  const app = createApp({
    settings: { maxBodyBytes: 1_048_576, publicUrl: null },
    depsFor: () => {
      throw new Error('The document is made without serving requests.')
    },
    clientIp: () => '127.0.0.1',
  })
  return app.getOpenAPI31Document(openApiDocument('/')) as OpenAPI3
}

/** The text of schema.d.ts for a document: openapi-typescript's output with its usual header. */
export async function renderTypeScriptSchema(document: OpenAPI3): Promise<string> {
  const ast = await openapiTS(document, { silent: true })
  return `${COMMENT_HEADER}${astToString(ast)}`
}
