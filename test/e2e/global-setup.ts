import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { buildClient } from '../../bin/build-client.js'
import { type Product, productEnv, requireBundle, serverServices, startProduct } from './support/product'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The `npm start` every e2e file drives (a fresh DATA_DIR; on PostgreSQL, a fresh database). */
    product: Product
  }
}

/**
 * `npm run test:e2e`: starts the product once, as a user does, for every file of the suite
 * (test/e2e/restart.test.ts starts one of its own to stop and start it again). Stopped after the
 * run, which must end with exit code 0; the database and DATA_DIR are removed.
 */
export default async function setup(project: TestProject) {
  // The page scripts the dashboard serves, bundled from src/dashboard/client/ (bin/build-client.js).
  await buildClient()
  await requireBundle()
  const dir = mkdtempSync(join(tmpdir(), 'sps-e2e-'))
  const services = await serverServices()
  let started: Awaited<ReturnType<typeof startProduct>>
  try {
    started = await startProduct(productEnv(join(dir, 'data'), services), join(dir, 'server.log'))
  } catch (err) {
    await services.close()
    rmSync(dir, { recursive: true, force: true })
    throw err
  }
  const { server, ...product } = started
  project.provide('product', product)
  return async () => {
    const code = await server.stop()
    await services.close()
    rmSync(dir, { recursive: true, force: true })
    if (code !== 0) throw new Error(`npm start exited with ${code} on SIGTERM`)
  }
}
