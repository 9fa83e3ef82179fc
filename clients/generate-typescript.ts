import { writeFile } from 'node:fs/promises'
import {
  appOpenApiDocument,
  renderTypeScriptSchema,
  TYPESCRIPT_SCHEMA_FILE,
  TYPESCRIPT_SCHEMA_PATH,
} from './schema-source'

/**
 * `npm run client:generate`: rewrites clients/typescript/schema.d.ts from the app's current
 * OpenAPI document. Run it after changing a route; commit the result with the change.
 */
await writeFile(TYPESCRIPT_SCHEMA_FILE, await renderTypeScriptSchema(appOpenApiDocument()))
console.log(`Wrote ${TYPESCRIPT_SCHEMA_PATH}`)
