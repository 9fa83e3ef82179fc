import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { cruise, type ICruiseOptions, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const { forbidden, options } = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as {
  forbidden: IForbiddenRuleType[]
  options: ICruiseOptions
}

/**
 * A small tree laid out like src/, each file making one import docs/architecture.md forbids, cruised
 * with the rules `npm run lint` uses: each import must be reported under the rule named beside it.
 */
const TREE: Record<string, string> = {
  'src/domain/vocabulary.ts': 'export const X = 1',
  'src/lib/ids.ts': 'export const Y = 1',
  'src/db/queries/posts.ts': "import { sql } from 'drizzle-orm'\nexport const q = sql",
  'src/routes/posts/schema.ts': 'export const S = 1',
  'src/schemas/posts.ts': 'export const S = 1',
  'src/infra/clock.ts': 'export const clock = 1',
  'src/networks/adapter.ts': 'export const A = 1',
  'src/http/context.ts': 'export const H = 1',
  // Violations:
  'src/infra/store.ts': "import { sql } from 'drizzle-orm'\nexport const s = sql",
  'src/routes/posts/get.ts': "import { clock } from '../../infra/clock'\nexport const g = clock",
  'src/routes/posts/list.ts': "import { A } from '../../networks/adapter'\nexport const l = A",
  'src/cli/commands/post.ts': "import { q } from '../../db/queries/posts'\nexport const c = q",
  'src/db/queries/accounts.ts': "import { clock } from '../../infra/clock'\nexport const a = clock",
  'src/mcp/tools/posts.ts': "import { S } from '../../routes/posts/schema'\nexport const t = S",
  'src/dashboard/pages/compose.tsx': "import { S } from '../../routes/posts/schema'\nexport const p = S",
  'src/schemas/media.ts': "import { H } from '../http/context'\nexport const m = H",
}

const EXPECTED: Array<[from: string, to: string, rule: string]> = [
  ['src/infra/store.ts', 'drizzle-orm', 'database-only-in-db'],
  ['src/routes/posts/get.ts', 'src/infra/clock.ts', 'routes-above-services'],
  ['src/routes/posts/list.ts', 'src/networks/adapter.ts', 'routes-above-services'],
  ['src/cli/commands/post.ts', 'src/db/queries/posts.ts', 'cli-no-db'],
  ['src/db/queries/accounts.ts', 'src/infra/clock.ts', 'db-only-domain-lib'],
  ['src/mcp/tools/posts.ts', 'src/routes/posts/schema.ts', 'only-app-mounts-routes'],
  ['src/dashboard/pages/compose.tsx', 'src/routes/posts/schema.ts', 'only-app-mounts-routes'],
  ['src/schemas/media.ts', 'src/http/context.ts', 'schemas-neutral'],
]

describe('the layer rules of npm run lint', () => {
  let base: string
  let result: ICruiseResult
  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'sps-layers-'))
    for (const [path, text] of Object.entries(TREE)) {
      mkdirSync(dirname(join(base, path)), { recursive: true })
      writeFileSync(join(base, path), `${text}\n`)
    }
    // The packages as the repository has them: drizzle-orm resolves, and counts as a dependency.
    symlinkSync(join(ROOT, 'node_modules'), join(base, 'node_modules'), 'dir')
    copyFileSync(join(ROOT, 'package.json'), join(base, 'package.json'))
    const cwd = process.cwd()
    process.chdir(base)
    try {
      const { tsConfig: _project, ...cruiseOptions } = options
      const out = await cruise(['src'], { ...cruiseOptions, ruleSet: { forbidden }, validate: true })
      result = out.output as ICruiseResult
    } finally {
      process.chdir(cwd)
    }
  }, 60_000)
  afterAll(() => rmSync(base, { recursive: true, force: true }))

  it('reports each import the architecture forbids under its rule, and nothing else', () => {
    const found = result.summary.violations.map((v) => [v.from, v.to, v.rule.name])
    for (const [from, to, rule] of EXPECTED) {
      expect(found).toContainEqual([from, expect.stringContaining(to), rule])
    }
    expect(found).toHaveLength(EXPECTED.length)
  })
})
