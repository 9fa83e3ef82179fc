import { defineConfig } from 'drizzle-kit'

// `npm run db:generate` writes SQL migrations from the schema; no database or network needed.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './migrations',
})
