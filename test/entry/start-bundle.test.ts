import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from '../support/processes'

// `npm start` runs a bundle of the sources (bin/start-bundle.js). Here on a project of two modules
// of its own, so an edit never touches the repository's sources or its cache.
const { bundledEntry } = (await import(pathToFileURL(join(ROOT, 'bin', 'start-bundle.js')).href)) as {
  bundledEntry(cache?: string, root?: string): Promise<string | null>
}

const project = mkdtempSync(join(tmpdir(), 'sps-bundle-'))
const cache = join(project, 'cache')
afterAll(() => rmSync(project, { recursive: true, force: true }))

function writeSources(message: string): void {
  mkdirSync(join(project, 'src', 'entry'), { recursive: true })
  writeFileSync(join(project, 'src', 'message.ts'), `export const message: string = ${JSON.stringify(message)}\n`)
  writeFileSync(join(project, 'src', 'entry', 'node.ts'), "export { message } from '../message'\n")
}

async function messageOf(entry: string): Promise<string> {
  return ((await import(pathToFileURL(entry).href)) as { message: string }).message
}

describe('the bundle npm start runs', () => {
  it('is built from the sources, reused while they are unchanged, and rebuilt when one changes', async () => {
    writeSources('first')
    const first = await bundledEntry(cache, project)
    expect(first).not.toBeNull()
    expect(await messageOf(first!)).toBe('first')
    // Unchanged sources: the same bundle, not a new build.
    expect(await bundledEntry(cache, project)).toBe(first)

    // An edited module: a new bundle that runs the new code; the old one is never used again.
    writeSources('second')
    const second = await bundledEntry(cache, project)
    expect(second).not.toBe(first)
    expect(await messageOf(second!)).toBe('second')

    // Back to the first contents: the first bundle again, by its hash.
    writeSources('first')
    expect(await bundledEntry(cache, project)).toBe(first)
    expect(readdirSync(cache).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  it('a new file under src/ counts as a change', async () => {
    writeSources('first')
    const before = await bundledEntry(cache, project)
    writeFileSync(join(project, 'src', 'unused.ts'), 'export const unused = 1\n')
    const after = await bundledEntry(cache, project)
    expect(after).not.toBe(before)
    expect(existsSync(after!)).toBe(true)
    rmSync(join(project, 'src', 'unused.ts'))
  })

  it("carries the project's own run-time files (the resampler's WebAssembly) in its folder, where the bundled modules look", async () => {
    writeSources('first')
    const wasm = join(project, 'src', 'media', 'wasm')
    mkdirSync(wasm, { recursive: true })
    const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])
    writeFileSync(join(wasm, 'resample.wasm'), bytes)
    writeFileSync(join(wasm, 'resample.c'), '/* the source stays behind */\n')
    const entry = await bundledEntry(cache, project)
    expect(new Uint8Array(readFileSync(join(dirname(entry!), 'wasm', 'resample.wasm')))).toEqual(bytes)
    expect(existsSync(join(dirname(entry!), 'wasm', 'resample.c'))).toBe(false)
    rmSync(join(project, 'src', 'media'), { recursive: true })
  })

  it('answers null for sources that do not compile, so npm start runs them through tsx and its error is shown', async () => {
    writeSources('first')
    writeFileSync(join(project, 'src', 'message.ts'), 'export const message: string = (\n')
    expect(await bundledEntry(cache, project)).toBeNull()
    expect(readdirSync(cache).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })
})
