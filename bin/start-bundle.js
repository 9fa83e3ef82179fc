// The bundle `npm start` runs (bin/start.js): esbuild makes it from the sources, because loading some
// 330 TypeScript modules through tsx took seconds of every start. It is named by a hash of what it is
// made of (every file under src/, package.json, tsconfig.json and these three files), so an edited
// source makes a new one at the next start and a stale one never runs. Packages are not in it: they
// load from node_modules (PGlite finds its WebAssembly and data files beside its own modules), so
// installing another version needs no new bundle. The project's own files read at run time (the
// resampler's WebAssembly) are copied into it (RUNTIME_FILES). Kept under node_modules/.cache.
import { createHash } from 'node:crypto'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildClient, CLIENT_DIR } from './build-client.js'

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)))
export const CACHE = join(ROOT, 'node_modules', '.cache', 'sps-start')
export const ENTRY = join(ROOT, 'src', 'entry', 'node.ts')
/** Bundles kept (the most recently started first): a server still running an older one loads its chunks lazily. */
const KEEP = 4

/** Packages loaded from node_modules rather than bundled (see `build`). */
const EXTERNAL_PACKAGES = [
  '@electric-sql/*',
  '@aws-sdk/*',
  '@smithy/*',
  's3rver',
  '@jsquash/*',
  '@cwasm/*',
  'swagger-ui-dist',
  '@neondatabase/*',
  'pg',
  'ws',
  '@upstash/*',
  '@modelcontextprotocol/*',
  'esbuild',
  'tsx',
  'sharp',
]

/**
 * The project's own files its modules read from disk at run time (not packages: those stay in
 * node_modules), copied into the bundle's folder: a module looks for them by walking up from its own
 * file (src/lib/nearest-above.ts), which in the bundle is that folder or its chunks/. `from`: a folder
 * of the project; `to`: its place in the bundle; `ext`: which of its files.
 */
export const RUNTIME_FILES = [{ from: join('src', 'media', 'wasm'), to: 'wasm', ext: '.wasm' }]

/** Copies RUNTIME_FILES from the project into a bundle's folder; a project without one of the folders has none to copy. */
function copyRuntimeFiles(root, dir) {
  for (const { from, to, ext } of RUNTIME_FILES) {
    const source = join(root, from)
    if (!existsSync(source)) continue
    for (const name of readdirSync(source).filter((n) => n.endsWith(ext))) {
      mkdirSync(join(dir, to), { recursive: true })
      copyFileSync(join(source, name), join(dir, to, name))
    }
  }
}

/** The launcher's own files: how the bundle is made. */
const LAUNCHER = [fileURLToPath(import.meta.url), join(ROOT, 'bin', 'start.js'), join(ROOT, 'bin', 'build-client.js')]

/**
 * Brings the page scripts' generated module (bin/build-client.js) up to date with the client sources
 * first: it is one of the sources bundled, so its new text names a new bundle. A project without
 * client code has none to build; client code that does not compile is reported and the last
 * generated scripts are served.
 */
async function buildClientBundles(root) {
  if (!existsSync(join(root, CLIENT_DIR))) return
  try {
    await buildClient(root)
  } catch (err) {
    console.error(`The dashboard's page scripts could not be built: ${err instanceof Error ? err.message : err}`)
  }
}

/** Every file of the project the bundle is made of, or that changes how it is made, relative to its root. */
function inputs(root) {
  const files = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath ?? entry.path, entry.name)))
  for (const extra of ['package.json', 'package-lock.json', 'tsconfig.json'])
    if (existsSync(join(root, extra))) files.push(extra)
  return files.sort()
}

/** The bundle's name: a hash of its inputs (paths and contents), the launcher, and the Node and esbuild that make it. */
export function bundleKey(esbuildVersion, root = ROOT) {
  const hash = createHash('sha256').update(`${process.version}\0${esbuildVersion}`)
  for (const file of LAUNCHER) hash.update('\0').update(readFileSync(file))
  for (const file of inputs(root)) hash.update(`\0${file}\0`).update(readFileSync(join(root, file)))
  return hash.digest('hex').slice(0, 24)
}

/** Builds into a temporary folder, then renames it into place: a concurrent start never sees half a bundle. */
async function build(esbuild, root, dir) {
  const tmp = `${dir}.${process.pid}.tmp`
  rmSync(tmp, { recursive: true, force: true })
  try {
    await esbuild.build({
      entryPoints: { node: join(root, 'src', 'entry', 'node.ts') },
      absWorkingDir: root,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // The packages the first request needs are bundled too (Node resolving and reading hundreds of
      // their files was most of the start); those that load files beside their own modules (PGlite's
      // WebAssembly, the codecs, swagger-ui's assets) or load on demand stay in node_modules.
      external: EXTERNAL_PACKAGES,
      // CommonJS packages in the bundle still require Node's own modules.
      banner: {
        js: "import { createRequire as __spsCreateRequire } from 'node:module'; const require = __spsCreateRequire(import.meta.url);",
      },
      // Modules the entry imports on demand stay separate chunks, loaded when it asks for them.
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      outdir: tmp,
      // A source that does not compile is reported by tsx, which the start falls back to.
      logLevel: 'silent',
    })
    copyRuntimeFiles(root, tmp)
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true })
    throw err
  }
  try {
    renameSync(tmp, dir)
  } catch (err) {
    // Another start built the same bundle meanwhile: use that one.
    rmSync(tmp, { recursive: true, force: true })
    if (!existsSync(join(dir, 'node.js'))) throw err
  }
}

/** Removes all but the KEEP most recently started bundles, and builds left half done a while ago (best effort). */
function prune(cache, current) {
  try {
    const dirs = readdirSync(cache)
      .filter((name) => name !== current)
      .map((name) => ({ name, used: statSync(join(cache, name)).mtimeMs }))
      .sort((a, b) => b.used - a.used)
    const stale = [
      ...dirs.filter((d) => !d.name.endsWith('.tmp')).slice(KEEP - 1),
      ...dirs.filter((d) => d.name.endsWith('.tmp') && Date.now() - d.used > 600_000),
    ]
    for (const { name } of stale) rmSync(join(cache, name), { recursive: true, force: true })
  } catch {
    // A cache that cannot be tidied costs only disk space.
  }
}

/**
 * The bundle's entry, built first when the sources changed; null when it cannot be built here (no
 * esbuild binary, a cache that cannot be written, sources that do not compile).
 * `cache`: where bundles are kept (the benchmark times a build in a folder of its own); `root`: the
 * project whose src/entry/node.ts is bundled (a test's own copy).
 */
export async function bundledEntry(cache = CACHE, root = ROOT) {
  // The version names the bundle; the package itself (about 30 ms to load) only when one is built.
  let esbuildVersion
  try {
    const manifest = createRequire(import.meta.url).resolve('esbuild/package.json')
    esbuildVersion = JSON.parse(readFileSync(manifest, 'utf8')).version
  } catch {
    return null
  }
  await buildClientBundles(root)
  const key = bundleKey(esbuildVersion, root)
  const dir = join(cache, key)
  if (!existsSync(join(dir, 'node.js'))) {
    try {
      const esbuild = await import('esbuild')
      mkdirSync(cache, { recursive: true })
      await build(esbuild, root, dir)
    } catch {
      // A cache that cannot be written, or sources esbuild refuses: run them through tsx instead.
      return null
    }
    prune(cache, key)
  } else {
    try {
      const now = new Date()
      utimesSync(dir, now, now)
    } catch {
      // Only the pruning order misses this start.
    }
  }
  return join(dir, 'node.js')
}
