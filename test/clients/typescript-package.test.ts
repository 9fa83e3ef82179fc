/**
 * The typed client as the package its users install: built with its own `npm run build` (tsc into
 * clients/typescript/dist, gitignored), packed as `npm pack` would pack it, and its BUILT output
 * imported to call the app served on loopback; its built declarations are compiled against a
 * consumer's code, so a typed body and a typed error body hold in what is shipped.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newId } from '../../src/lib/ids'
import { account } from '../support/fixtures'
import { ROOT } from '../support/processes'
import { createTestApp, type TestApp } from '../support/test-app'

const run = promisify(execFile)
const PACKAGE_DIR = join(ROOT, 'clients', 'typescript')
const BUILT = join(PACKAGE_DIR, 'dist', 'index.js')

describe('the typed client as a package (clients/typescript)', () => {
  beforeAll(async () => {
    await run('npm', ['run', 'build'], { cwd: PACKAGE_DIR })
  }, 120_000)

  it('packs its built files, README and package.json only', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PACKAGE_DIR })
    const [packed] = JSON.parse(stdout)
    expect(packed.name).toBe('@social-publishing/client')
    expect(packed.files.map((f: { path: string }) => f.path).sort()).toEqual([
      'README.md',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/schema.d.ts',
      'package.json',
    ])
    // The types are most of it; the code is a few hundred bytes.
    expect(packed.files.find((f: { path: string }) => f.path === 'dist/index.js').size).toBeLessThan(2_000)
  })

  it("compiles a consumer's code against the built declarations: typed bodies and error bodies", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sps-client-consumer-'))
    try {
      await writeFile(
        join(dir, 'consumer.ts'),
        [
          "import { createSocialPublishingClient, type ApiError } from '@social-publishing/client'",
          "const api = createSocialPublishingClient({ baseUrl: 'http://127.0.0.1', token: 'sps_x' })",
          'export async function consume(): Promise<string> {',
          "  const { data, error } = await api.GET('/v1/posts/{id}', { params: { path: { id: 'post_1' } } })",
          '  const failed: ApiError | undefined = error',
          "  if (failed) return failed.error.code + ' ' + failed.error.requestId",
          '  // @ts-expect-error `action` is one of draft, now, schedule, queue',
          "  await api.POST('/v1/posts', { body: { type: 'IMAGE', accountIds: ['a'], mediaIds: [], action: 'later' } })",
          "  return data?.status ?? 'none'",
          '}',
          '',
        ].join('\n'),
      )
      const tsconfig = {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
          paths: { '@social-publishing/client': [join(PACKAGE_DIR, 'dist', 'index.d.ts')] },
        },
        files: ['consumer.ts'],
      }
      await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig))
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
      const checked = await run(process.execPath, [tsc, '-p', dir]).catch((err) => err)
      expect(`${checked.stdout ?? ''}${checked.stderr ?? ''}`).toBe('')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 60_000)

  describe('its built output over real HTTP against the app', () => {
    let t: TestApp
    let server: ReturnType<typeof serve>
    let client: any

    beforeAll(async () => {
      t = await createTestApp()
      server = serve({ fetch: t.app.fetch, hostname: '127.0.0.1', port: 0 })
      await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
      const { createSocialPublishingClient } = await import(pathToFileURL(BUILT).href)
      client = createSocialPublishingClient({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        token: t.token,
      })
    })
    afterAll(async () => {
      await new Promise<void>((r) => server.close(() => r()))
    })

    it('creates a post and reads it back', async () => {
      const a = await account(t, 'MICROBLOG_NET')
      const created = await client.POST('/v1/posts', {
        body: { type: 'IMAGE', mediaIds: [], accountIds: [a.id], action: 'draft', caption: 'From the package' },
      })
      expect(created.response.status).toBe(200)
      const { warnings: _, ...post } = created.data
      expect(post).toMatchObject({ status: 'DRAFT', caption: 'From the package', accountIds: [a.id] })
      const read = await client.GET('/v1/posts/{id}', { params: { path: { id: post.id } } })
      expect(read.data).toEqual(post)
    })

    it('answers a missing post with the error body, its request id the header', async () => {
      const missing = await client.GET('/v1/posts/{id}', { params: { path: { id: newId('post') } } })
      expect(missing.response.status).toBe(404)
      expect(missing.data).toBeUndefined()
      expect(missing.error.error).toMatchObject({
        code: 'not_found',
        requestId: missing.response.headers.get('x-request-id'),
      })
    })
  })
})
