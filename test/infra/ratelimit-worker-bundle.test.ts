import * as esbuild from 'esbuild'
import { expect, it } from 'vitest'
import { ROOT } from '../support/processes'

/**
 * REDIS_URL's limiter is Node's only: nothing the Worker's entry reaches, statically or by a dynamic
 * import, leads to ioredis, rate-limiter-flexible or the limiter over them (esbuild follows both kinds).
 */
it('keeps ioredis and rate-limiter-flexible out of the Worker bundle', async () => {
  const built = await esbuild.build({
    entryPoints: ['src/entry/worker.ts'],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'neutral',
    format: 'esm',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser'],
    external: ['cloudflare:*', 'node:*', '*.wasm'],
    // As wrangler.toml's rules: the docs page's stylesheet is bundled as text.
    loader: { '.css': 'text' },
    logLevel: 'silent',
  })
  const inputs = Object.keys(built.metafile.inputs)
  expect(inputs).toContain('src/infra/ratelimit/upstash.ts')
  expect(
    inputs.filter((path) => /ioredis|rate-limiter-flexible|ratelimit\/redis\.ts|node-rate-limiter/.test(path)),
  ).toEqual([])
})
