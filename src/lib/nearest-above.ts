import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The nearest `relativePath` above a module (its own folder first, then each parent), or null.
 * Node only. How a module finds the project files it reads at run time both from the sources and
 * from the bundle `npm start` runs (bin/start-bundle.js puts them in the bundle's folder, or they
 * lie above it, in the project).
 */
export function nearestAbove(moduleUrl: string, relativePath: string): string | null {
  for (let dir = dirname(fileURLToPath(moduleUrl)); ; dir = dirname(dir)) {
    const candidate = join(dir, relativePath)
    if (existsSync(candidate)) return candidate
    if (dirname(dir) === dir) return null
  }
}
