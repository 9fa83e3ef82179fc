import { bestTimesBenchmark } from './best-times.bench'
import { calendarBenchmark } from './calendar.bench'
import { dashboardAssetsBenchmark } from './dashboard-assets.bench'
import { engineBenchmark } from './engine.bench'
import { engineInstancesBenchmark } from './engine-instances.bench'
import { foundationBenchmark } from './foundation.bench'
import { inboxBenchmark } from './inbox.bench'
import { inboxSyncBenchmark } from './inbox-sync.bench'
import { loadBenchmark } from './load.bench'
import { postsBenchmark } from './posts.bench'
import { rateLimitBenchmark } from './ratelimit.bench'
import { startBenchmark } from './start.bench'
import type { Benchmark } from './types'
import { variantsBenchmark } from './variants.bench'
import { webhooksBenchmark } from './webhooks.bench'

/** `npm run bench` runs every benchmark; `npm run bench -- foundation` only the named ones. */
const BENCHMARKS: Benchmark[] = [
  foundationBenchmark,
  postsBenchmark,
  engineBenchmark,
  engineInstancesBenchmark,
  variantsBenchmark,
  bestTimesBenchmark,
  calendarBenchmark,
  loadBenchmark,
  webhooksBenchmark,
  startBenchmark,
  dashboardAssetsBenchmark,
  rateLimitBenchmark,
  inboxBenchmark,
  inboxSyncBenchmark,
]

async function main() {
  // Flags (`--full`) are the benchmarks' own; the other arguments name benchmarks.
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'))
  const selected = wanted.length ? BENCHMARKS.filter((b) => wanted.includes(b.name)) : BENCHMARKS
  if (selected.length === 0)
    throw new Error(`no benchmark named ${wanted.join(', ')}; have: ${BENCHMARKS.map((b) => b.name).join(', ')}`)
  for (const bench of selected) {
    console.log(`\n## ${bench.name}: ${bench.description}`)
    const rows = await bench.run()
    console.table(rows)
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
