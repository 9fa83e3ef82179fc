import { writeFileSync } from 'node:fs'
import { parseNodeConfig } from '../src/config'
import type { NetworkAdapter } from '../src/networks/adapter'
import { openNodeRuntime } from '../src/runtime/node-deps'
import { requeuePendingTargets } from '../src/services/publishing/sweep'

/**
 * One instance of the engine's multi-instance burst (bench/engine-instances.bench.ts): the Node
 * runtime on DATABASE_URL with an adapter that takes BENCH_ADAPTER_MS per call, handed every pending
 * target at its start (as `npm start` does), run until its queue is empty after BENCH_FIRST_DUE.
 * Writes to BENCH_OUT the idempotency keys it published, when it was done and the CPU it used.
 */
const env = process.env
const adapterMs = Number(env.BENCH_ADAPTER_MS ?? 100)
const firstDue = Number(env.BENCH_FIRST_DUE)
const calls: string[] = []
let lastResultAt = 0
const adapter: NetworkAdapter = {
  async publish(input) {
    calls.push(input.idempotencyKey)
    await new Promise((r) => setTimeout(r, adapterMs))
    lastResultAt = Date.now()
    return {
      status: 'published',
      platformPostId: `n_${input.idempotencyKey}`,
      permalink: `https://bench.invalid/${input.idempotencyKey}`,
    }
  },
}
const runtime = await openNodeRuntime(parseNodeConfig({ ...env, LOG_LEVEL: 'silent', PORT: '0' }), {
  networks: { adapterFor: () => adapter, baseUrlFor: () => '', fetch },
})
const cpuBefore = process.cpuUsage()
const enqueued = await requeuePendingTargets(runtime.deps)
const lateStart = Date.now() > firstDue
console.log('ready')
const queue = runtime.publishQueue
for (;;) {
  await new Promise((r) => setTimeout(r, 50))
  if (queue.waiting === 0 && queue.running === 0 && Date.now() > firstDue) break
}
const cpu = process.cpuUsage(cpuBefore)
writeFileSync(
  env.BENCH_OUT!,
  JSON.stringify({
    calls,
    enqueued,
    lateStart,
    doneAt: Date.now(),
    lastResultAt,
    cpuMs: (cpu.user + cpu.system) / 1000,
  }),
)
await runtime.close()
process.exit(0)
