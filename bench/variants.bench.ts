import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { nodeImageCodecs } from '../src/media/codecs-node'
import { renderVariants } from '../src/media/variants'
import { CANVASES } from '../src/domain/rules/index'
import { round, type Benchmark } from './types'

/**
 * The variants pipeline on a synthetic 12 MP photo (4000x3000 JPEG): all four canvases, cover,
 * smart crop, JPEG q82, against sharp (libvips, native; Node only) doing the same work (cover,
 * `attention` crop, mozjpeg q82) on the same machine in the same run. Each contender runs in a
 * fresh Node process so its peak RSS is its own: "peak over baseline" is the process's peak RSS
 * minus its RSS before the first run (after loading and compiling its code).
 */
const SIZES = Object.values(CANVASES)
const RUNS = 3
type Contender = 'ours' | 'ours-js-resample' | 'ours-live' | 'sharp' | 'sharp-1-thread'
interface ChildResult {
  coldMs: number
  warmMs: number[]
  baselineRssMb: number
  /** Peak RSS of the process after the one cold run (before the warm runs add garbage of their own). */
  peakRssMb: number
  decoderWasmMb?: number
  encoderWasmMb?: number
  decodeEighths?: number
  /** JS heap + external memory (ArrayBuffers, WebAssembly memories) at the pipeline's steps: max, and at which step. */
  stepPeakMb?: number
  stepPeakAt?: string
  /** Milliseconds from the start to the decoded image, through every canvas's crop and resample, through the encodes (median run). */
  phasesMs?: { decode: number; resample: number; encode: number }
  outputs: string
}

/**
 * Records the WebAssembly memory the instances of one module reach (memories only grow). Only that
 * module's instances are held: a WeakRef would keep a decoder's memory alive to the end of the job.
 */
function trackWasmMemory(tracked: WebAssembly.Module): () => number {
  const memories: WebAssembly.Memory[] = []
  const Instance = WebAssembly.Instance
  // Constructed with `new` by the codecs' glue code: a subclass, so it stays a constructor.
  WebAssembly.Instance = class TrackedInstance extends Instance {
    constructor(module: WebAssembly.Module, imports?: WebAssembly.Imports) {
      super(module, imports)
      if (module === tracked)
        for (const value of Object.values(this.exports)) if (value instanceof WebAssembly.Memory) memories.push(value)
    }
  }
  return () => Math.max(0, ...memories.map((m) => m.buffer.byteLength))
}

const sharpOf = async () => (await import('sharp')).default

/** A photo-like 12 MP scene: sky and ground gradients, texture, and a skin-tone subject right of centre. */
async function makePhoto(file: string, progressive: boolean): Promise<void> {
  const w = 4000
  const h = 3000
  const rgb = Buffer.alloc(w * h * 3)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3
      const noise = ((x * 2654435761) ^ (y * 40503)) & 15
      const dx = (x - 2900) / 420
      const dy = (y - 1500) / 560
      if (dx * dx + dy * dy < 1) rgb.set([224 - noise, 170 - noise, 138 - noise], i)
      else if (y < h * 0.55) rgb.set([90 + (y / h) * 80 + noise, 140 + (y / h) * 60 + noise, 210 - noise], i)
      else rgb.set([70 + noise * 2, 110 + ((x >> 5) & 31) + noise, 50 + noise], i)
    }
  }
  await (await sharpOf())(rgb, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 90, progressive })
    .toFile(file)
}

async function child(contender: Contender, file: string): Promise<ChildResult> {
  const bytes = new Uint8Array(readFileSync(file))
  let work: () => Promise<{ sizes: number[]; decoderWasmMb?: number; encoderWasmMb?: number; decodeEighths?: number }>
  let stepPeak = { mb: 0, at: '' }
  let phases = { decode: 0, resample: 0, encode: 0 }
  const phaseRuns: Array<typeof phases> = []
  if (contender !== 'sharp' && contender !== 'sharp-1-thread') {
    const loaded = await nodeImageCodecs().load()
    // The baseline: the same pipeline with the JavaScript Lanczos kernel it had before the WebAssembly one.
    const modules = contender === 'ours-js-resample' ? { ...loaded, resampler: undefined } : loaded
    const encoderMemory = trackWasmMemory(modules.mozjpegEncoder)
    // 'ours-live' collects garbage at every step, so what it sees is what the pipeline holds live.
    const gc = contender === 'ours-live' ? (globalThis as { gc?: () => void }).gc : undefined
    let last = 0
    const onStep = (step: string) => {
      const now = performance.now()
      const phase = step === 'decoded' ? 'decode' : step === 'resampled' ? 'resample' : 'encode'
      phases[phase] += now - last
      last = now
      // Twice: a WebAssembly memory is released in the second pass, after its instance is finalised.
      gc?.()
      gc?.()
      const m = process.memoryUsage()
      const mb = (m.heapUsed + m.external) / 1048576
      if (mb > stepPeak.mb) stepPeak = { mb, at: step }
    }
    work = async () => {
      phases = { decode: 0, resample: 0, encode: 0 }
      last = performance.now()
      const r = await renderVariants(modules, { bytes, mimeType: 'image/jpeg' }, SIZES, 'cover', 'smart', onStep)
      return {
        sizes: r.outputs.map((o) => o.bytes.length),
        decoderWasmMb: r.stats.decoderMemoryBytes / 1048576,
        encoderWasmMb: encoderMemory() / 1048576,
        decodeEighths: r.stats.decodeEighths,
      }
    }
    const inner = work
    work = async () => {
      const result = await inner()
      phaseRuns.push(phases)
      return result
    }
  } else {
    const sharp = await sharpOf()
    if (contender === 'sharp-1-thread') sharp.concurrency(1)
    work = async () => {
      const sizes: number[] = []
      for (const s of SIZES) {
        const out = await sharp(bytes)
          .resize(s.width, s.height, { fit: 'cover', position: sharp.strategy.attention })
          .jpeg({ quality: 82, mozjpeg: true })
          .toBuffer()
        sizes.push(out.length)
      }
      return { sizes }
    }
  }
  const baselineRssMb = process.memoryUsage().rss / 1048576
  let t = performance.now()
  const first = await work()
  const coldMs = performance.now() - t
  const peakRssMb = process.resourceUsage().maxRSS / 1024
  const coldStepPeak = stepPeak
  const warm: Array<{ ms: number; run: number }> = []
  for (let i = 0; i < RUNS; i++) {
    t = performance.now()
    await work()
    warm.push({ ms: performance.now() - t, run: i + 1 })
  }
  warm.sort((a, b) => a.ms - b.ms)
  const medianPhases = phaseRuns[warm[Math.floor(RUNS / 2)]!.run]
  return {
    coldMs,
    warmMs: warm.map((w) => w.ms),
    ...(medianPhases ? { phasesMs: medianPhases } : {}),
    baselineRssMb,
    peakRssMb,
    ...(coldStepPeak.at ? { stepPeakMb: coldStepPeak.mb, stepPeakAt: coldStepPeak.at } : {}),
    ...(first.decoderWasmMb !== undefined
      ? { decoderWasmMb: first.decoderWasmMb, encoderWasmMb: first.encoderWasmMb, decodeEighths: first.decodeEighths }
      : {}),
    outputs: first.sizes.map((n) => `${Math.round(n / 1024)}K`).join(' '),
  }
}

function runChild(contender: Contender, file: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const flags = contender === 'ours-live' ? ['--expose-gc'] : []
    const proc = spawn(process.execPath, [...flags, '--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, NODE_NO_WARNINGS: '1', VARIANTS_BENCH_CHILD: contender, VARIANTS_BENCH_FILE: file },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    proc.stdout.on('data', (d) => (out += d))
    proc.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').pop()!))
        : reject(new Error(`${contender} exited ${code}: ${out}`)),
    )
  })
}

export const variantsBenchmark: Benchmark = {
  name: 'variants',
  description: `four canvases (cover, smart crop, q82) from a 12 MP JPEG: our WASM pipeline vs sharp, time (median of ${RUNS} after a cold run) and peak RSS, each in its own process`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'sps-variants-bench-'))
    try {
      const baseline = join(dir, 'photo-12mp.jpg')
      const progressive = join(dir, 'photo-12mp-progressive.jpg')
      await makePhoto(baseline, false)
      await makePhoto(progressive, true)
      const results: Array<[string, ChildResult]> = []
      results.push(['before: ours with the JavaScript resampler', await runChild('ours-js-resample', baseline)])
      results.push([
        'ours (jpeg-turbo M/8 + WASM SIMD Lanczos + smartcrop + mozjpeg)',
        await runChild('ours', baseline),
      ])
      results.push(['ours, progressive source', await runChild('ours', progressive)])
      results.push(['ours, GC at every step (live memory)', await runChild('ours-live', baseline)])
      results.push(['ours, progressive, GC at every step', await runChild('ours-live', progressive)])
      results.push(['sharp 0.35 (libvips, native, default threads)', await runChild('sharp', baseline)])
      results.push(['sharp, 1 thread', await runChild('sharp-1-thread', baseline)])
      const median = (r: ChildResult) => r.warmMs[Math.floor(r.warmMs.length / 2)]!
      const before = results[0]![1]
      const ours = results[1]![1]
      const sharp = results[5]![1]
      const rows: Array<Record<string, string | number>> = results.map(([name, r]) => ({
        contender: name,
        'cold ms': round(r.coldMs, 0),
        'median ms': round(median(r), 0),
        'peak RSS MB (cold run)': round(r.peakRssMb, 0),
        'peak over baseline MB': round(r.peakRssMb - r.baselineRssMb, 0),
        'decode / crop+resample / encode ms': r.phasesMs
          ? `${round(r.phasesMs.decode, 0)} / ${round(r.phasesMs.resample, 0)} / ${round(r.phasesMs.encode, 0)}`
          : '-',
        'heap+external MB at steps': r.stepPeakMb !== undefined ? `${round(r.stepPeakMb, 0)} (${r.stepPeakAt})` : '-',
        'WASM MB decoder + encoder':
          r.decoderWasmMb !== undefined ? `${round(r.decoderWasmMb, 1)} + ${round(r.encoderWasmMb ?? 0, 1)}` : '-',
        outputs: r.outputs,
      }))
      const ratio = (name: string, a: ChildResult, b: ChildResult) => ({
        contender: name,
        'cold ms': round(a.coldMs / b.coldMs, 2),
        'median ms': round(median(a) / median(b), 2),
      })
      rows.push(ratio('ratio before / sharp (default threads)', before, sharp))
      rows.push({
        contender: 'ratio ours / sharp (default threads)',
        'cold ms': round(ours.coldMs / sharp.coldMs, 2),
        'median ms': round(median(ours) / median(sharp), 2),
        'peak RSS MB (cold run)': round(ours.peakRssMb / sharp.peakRssMb, 2),
        'peak over baseline MB': round(
          (ours.peakRssMb - ours.baselineRssMb) / (sharp.peakRssMb - sharp.baselineRssMb),
          2,
        ),
        'decode / crop+resample / encode ms': '-',
        'heap+external MB at steps': '-',
        'WASM MB decoder + encoder': '-',
        outputs: `decoded at ${ours.decodeEighths}/8`,
      })
      return rows
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
}

if (process.env.VARIANTS_BENCH_CHILD) {
  child(process.env.VARIANTS_BENCH_CHILD as Contender, process.env.VARIANTS_BENCH_FILE!).then(
    (r) => {
      process.stdout.write(`${JSON.stringify(r)}\n`)
      process.exit(0)
    },
    (err: unknown) => {
      console.error(err)
      process.exit(1)
    },
  )
}
