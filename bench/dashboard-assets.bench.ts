import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { appOptions, createApp } from '../src/app'
import { parseNodeConfig } from '../src/config'
import { createMemoryRateLimiter } from '../src/infra/ratelimit/memory'
import { openNodeRuntime } from '../src/runtime/node-deps'
import { nodeClientIp } from '../src/runtime/client-ip'
import { addSandboxAccount } from '../src/services/accounts/accounts'
import { addMember } from '../src/services/people/memberships'
import { startSession } from '../src/services/people/sessions'
import { createToken } from '../src/services/tokens'
import { createUser } from '../src/services/people/users'
import { createWorkspace } from '../src/services/workspace/workspaces'
import { round, type Benchmark } from './types'

/** The budgets, gzip: the JavaScript one page loads, and its stylesheets. */
const JS_BUDGET_KB = 60
const CSS_BUDGET_KB = 30

/** The pages measured, under the workspace (`{post}`: a post of the workspace). */
const PAGES: Array<[string, string]> = [
  ['sign-in', '/app/sign-in'],
  ['calendar week', '{w}/calendar'],
  ['calendar month', '{w}/calendar?view=month'],
  ['calendar list', '{w}/calendar?view=list'],
  ['composer', '{w}/compose'],
  ['post', '{w}/posts/{post}'],
  ['post edit', '{w}/posts/{post}/edit'],
  ['accounts', '{w}/accounts'],
  ['media', '{w}/media'],
  ['queue', '{w}/queue'],
  ['analytics', '{w}/analytics'],
  ['settings', '{w}/settings'],
  ['members', '{w}/settings/members'],
  ['tokens', '{w}/settings/tokens'],
  ['webhooks', '{w}/settings/webhooks'],
]

type Fetch = (path: string) => Promise<Response>

/** The addresses a page's HTML loads: its scripts (`src`) and its stylesheets and module preloads (`href`). */
function referencedAssets(html: string, page: string): { scripts: string[]; styles: string[] } {
  const resolve = (href: string) => new URL(href.replace(/&amp;/g, '&'), `http://bench${page}`).pathname
  const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => resolve(m[1]!))
  const preloads = [...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => resolve(m[1]!))
  const styles = [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => resolve(m[1]!))
  return { scripts: [...scripts, ...preloads], styles }
}

/** A script's static imports (`import "./chunk.js"`, `from "./chunk.js"`), as paths: a bundle's shared chunks. */
const importsOf = (js: string, at: string) =>
  [...js.matchAll(/(?:\bimport\s*|\bfrom\s*)["']([^"']+\.js)["']/g)].map(
    (m) => new URL(m[1]!, `http://bench${at}`).pathname,
  )

/**
 * The gzip size of each asset, read once from the app (what a browser downloads), and of each page's
 * JavaScript with every chunk it imports.
 */
function assetSizes(get: Fetch) {
  const sizes = new Map<string, { gzip: number; body: string }>()
  const size = async (path: string) => {
    let known = sizes.get(path)
    if (!known) {
      const res = await get(path)
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`)
      const body = await res.text()
      known = { gzip: gzipSync(body, { level: 9 }).byteLength, body }
      sizes.set(path, known)
    }
    return known
  }
  return async function pageBytes(paths: string[], followImports: boolean): Promise<number> {
    const seen = new Set<string>()
    const queue = [...paths]
    let total = 0
    while (queue.length) {
      const path = queue.shift()!
      if (seen.has(path)) continue
      seen.add(path)
      const asset = await size(path)
      total += asset.gzip
      if (followImports) queue.push(...importsOf(asset.body, path))
    }
    return total
  }
}

/** A workspace with a few accounts and a post, its owner signed in (a session made by the service). */
async function signedInApp(dir: string) {
  const runtime = await openNodeRuntime(
    parseNodeConfig({ ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent', LOCAL_S3_PORT: '0' }),
    {
      rateLimiter: createMemoryRateLimiter({ rules: { default: { limit: 1_000_000, windowSec: 60 } } }),
    },
  )
  const { deps } = runtime
  const ws = await createWorkspace(deps.db, { name: 'bench', planId: 'agency' })
  const { token } = await createToken(deps.db, ws.id, 'bench')
  const user = await createUser(deps, {
    email: 'bench@example.com',
    name: 'Bench',
    password: 'bench assets lantern moss',
  })
  await deps.db.transaction((tx) => addMember(tx, ws.id, user.id, 'owner'))
  const accountIds: string[] = []
  for (const platform of ['MICROBLOG_NET', 'PROFESSIONAL_NET', 'TEXTTHREAD_NET'] as const)
    accountIds.push(
      (await addSandboxAccount(deps.db, deps.cipher, { workspaceId: ws.id, platform, username: platform })).id,
    )
  const app = createApp(appOptions(deps, nodeClientIp(false)))
  const created = await app.request('/v1/posts', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'IMAGE', accountIds, mediaIds: [], action: 'draft', caption: 'Bench post' }),
  })
  const post = (await created.json()) as { id: string }
  const session = await startSession(deps.db, user.id, deps.clock.now())
  const get: Fetch = async (path) => app.request(path, { headers: { cookie: `sps_session=${session.token}` } })
  return { runtime, get, workspace: `/app/w/${ws.id}`, postId: post.id }
}

/**
 * Each dashboard page rendered by the app, and the scripts and stylesheets its HTML references (and
 * the chunks those scripts import) fetched from the app and gzipped: JavaScript at most 60 KB a page,
 * CSS at most 30 KB.
 */
export const dashboardAssetsBenchmark: Benchmark = {
  name: 'dashboard-assets',
  description: `JavaScript and CSS each dashboard page loads, gzip (budgets: JS ${JS_BUDGET_KB} KB, CSS ${CSS_BUDGET_KB} KB a page)`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'sps-bench-assets-'))
    const { runtime, get, workspace, postId } = await signedInApp(dir)
    try {
      const pageBytes = assetSizes(get)
      const rows: Array<Record<string, string | number>> = []
      for (const [name, template] of PAGES) {
        const path = template.replace('{w}', workspace).replace('{post}', postId)
        const res = await get(path)
        if (res.status !== 200) throw new Error(`${name} (${path}) answered ${res.status}`)
        const { scripts, styles } = referencedAssets(await res.text(), path)
        const js = (await pageBytes(scripts, true)) / 1024
        const css = (await pageBytes(styles, false)) / 1024
        rows.push({
          page: name,
          scripts: scripts.length,
          js_gzip_kb: round(js, 1),
          js_budget_kb: JS_BUDGET_KB,
          stylesheets: styles.length,
          css_gzip_kb: round(css, 1),
          css_budget_kb: CSS_BUDGET_KB,
          within: js <= JS_BUDGET_KB && css <= CSS_BUDGET_KB ? 'yes' : 'NO',
        })
      }
      return rows
    } finally {
      await runtime.close()
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
