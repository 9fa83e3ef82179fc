/**
 * Charts drawn on the server as SVG (no script, no library): a y axis with rounded ticks and grid
 * lines, day labels on the x axis, a bar or a point per day with its figure in a `<title>` (the
 * browser's tooltip), and behind each chart the same figures as a table in a `<details>`.
 * A series with one known point draws that point and says so, never a flat line.
 */
import type { Child } from 'hono/jsx'

const W = 560
const H = 240
const M = { top: 16, right: 16, bottom: 34, left: 52 }
const PLOT_W = W - M.left - M.right
const PLOT_H = H - M.top - M.bottom

export interface ChartPoint {
  day: string
  value: number | null
}

export interface ChartSeries {
  name: string
  /** A modifier for the series' colour class (`chart-series-<n>`). */
  tone: number
  points: ChartPoint[]
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** "2026-03-10" as "10 Mar". */
export const dayLabel = (day: string) => `${Number(day.slice(8, 10))} ${MONTHS[Number(day.slice(5, 7)) - 1]}`

const format = (v: number) => new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 }).format(v)

/** Round tick values covering [min, max] (about `count` of them, steps of 1, 2 or 5 times a power of ten). */
export function niceTicks(min: number, max: number, count = 4): number[] {
  if (min === max) {
    const pad = Math.max(1, Math.abs(min) * 0.05)
    return niceTicks(Math.max(0, min - pad), max + pad, count)
  }
  const raw = (max - min) / count
  const power = 10 ** Math.floor(Math.log10(raw))
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power
  const first = Math.floor(min / step) * step
  const ticks: number[] = []
  for (let v = first; v < max + step; v += step) {
    ticks.push(Math.round(v * 1e6) / 1e6)
    if (v >= max) break
  }
  return ticks
}

interface Frame {
  days: string[]
  ticks: number[]
  x(i: number): number
  y(v: number): number
  band: number
}

function frameOf(days: string[], values: number[], fromZero: boolean): Frame {
  const lo = values.length ? Math.min(...values) : 0
  const hi = values.length ? Math.max(...values) : 1
  const ticks = niceTicks(fromZero ? 0 : lo, Math.max(hi, fromZero ? 1 : hi))
  const min = ticks[0]!
  const max = ticks[ticks.length - 1]!
  const band = PLOT_W / Math.max(1, days.length)
  return {
    days,
    ticks,
    band,
    x: (i) => M.left + band * (i + 0.5),
    y: (v) => M.top + PLOT_H - ((v - min) / (max - min || 1)) * PLOT_H,
  }
}

/** Axes, grid lines, y ticks and a day label every few days. */
function Axes({ f }: { f: Frame }) {
  const every = Math.max(1, Math.ceil(f.days.length / 6))
  return (
    <g class="chart-axes">
      {f.ticks.map((t) => (
        <g>
          <line class="chart-grid" x1={M.left} x2={W - M.right} y1={f.y(t)} y2={f.y(t)} />
          <text class="chart-tick" x={M.left - 8} y={f.y(t) + 4} text-anchor="end">
            {format(t)}
          </text>
        </g>
      ))}
      <line class="chart-axis" x1={M.left} x2={M.left} y1={M.top} y2={M.top + PLOT_H} />
      <line class="chart-axis" x1={M.left} x2={W - M.right} y1={M.top + PLOT_H} y2={M.top + PLOT_H} />
      {f.days.map((d, i) =>
        (f.days.length - 1 - i) % every === 0 ? (
          <text class="chart-tick" x={f.x(i)} y={H - 12} text-anchor="middle">
            {dayLabel(d)}
          </text>
        ) : null,
      )}
    </g>
  )
}

/** The chart's figure: the SVG, its caption, and the table with the same numbers. */
function ChartFigure(props: {
  id: string
  title: string
  summary: string
  svg: Child
  table: Child
  note?: string
  legend?: Child
}) {
  return (
    <figure class="chart-figure" aria-labelledby={`${props.id}-title`}>
      <figcaption id={`${props.id}-title`} class="chart-title">
        {props.title}
      </figcaption>
      {props.legend ?? null}
      <svg class="chart" id={props.id} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.summary}>
        {props.svg}
      </svg>
      {props.note ? <p class="chart-note">{props.note}</p> : null}
      <details class="chart-data">
        <summary>Show the figures as a table</summary>
        <section class="table-scroll" tabindex={0} aria-label={`${props.title}: figures`}>
          {props.table}
        </section>
      </details>
    </figure>
  )
}

/** One bar per day (unknown days drawn as nothing, and "–" in the table). */
export function BarChart(props: { id: string; title: string; unit: string; points: ChartPoint[] }) {
  const known = props.points.map((p) => p.value).filter((v): v is number => v !== null)
  const f = frameOf(
    props.points.map((p) => p.day),
    known,
    true,
  )
  const total = known.reduce((a, b) => a + b, 0)
  const summary = `${props.title}: ${format(total)} ${props.unit} over ${props.points.length} days, at most ${format(Math.max(0, ...known))} in a day.`
  const width = Math.max(1, f.band * 0.7)
  return (
    <ChartFigure
      id={props.id}
      title={props.title}
      summary={summary}
      svg={
        <>
          <Axes f={f} />
          {props.points.map((p, i) =>
            p.value === null ? null : (
              <rect
                class="chart-bar"
                x={f.x(i) - width / 2}
                y={f.y(p.value)}
                width={width}
                height={Math.max(p.value > 0 ? 1 : 0, f.y(0) - f.y(p.value))}
              >
                <title>{`${dayLabel(p.day)}: ${format(p.value)} ${props.unit}`}</title>
              </rect>
            ),
          )}
        </>
      }
      table={
        <table class="chart-table">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">{props.unit[0]!.toUpperCase() + props.unit.slice(1)}</th>
            </tr>
          </thead>
          <tbody>
            {props.points.map((p) => (
              <tr>
                <th scope="row">{p.day}</th>
                <td>{p.value === null ? '–' : format(p.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  )
}

/** Runs of consecutive known points (a day without a figure breaks the line). */
function runsOf(points: ChartPoint[]): Array<Array<{ i: number; v: number }>> {
  const runs: Array<Array<{ i: number; v: number }>> = [[]]
  points.forEach((p, i) => {
    if (p.value === null) runs.push([])
    else runs[runs.length - 1]!.push({ i, v: p.value })
  })
  return runs.filter((r) => r.length > 0)
}

/** One line per series with a point per known day; a lone point stays a point. */
export function LineChart(props: { id: string; title: string; unit: string; series: ChartSeries[] }) {
  const days = props.series[0]?.points.map((p) => p.day) ?? []
  const known = props.series.flatMap((s) => s.points.map((p) => p.value).filter((v): v is number => v !== null))
  const f = frameOf(days, known, false)
  const counts = props.series.map((s) => s.points.filter((p) => p.value !== null).length)
  const single = counts.every((n) => n <= 1)
  const summary = props.series
    .map((s) => {
      const r = s.points.filter((p) => p.value !== null)
      if (r.length === 0) return `${s.name}: no figure yet`
      if (r.length === 1) return `${s.name}: ${format(r[0]!.value!)} on ${dayLabel(r[0]!.day)}`
      return `${s.name}: from ${format(r[0]!.value!)} to ${format(r[r.length - 1]!.value!)}`
    })
    .join('; ')
  return (
    <ChartFigure
      id={props.id}
      title={props.title}
      summary={`${props.title}. ${summary}.`}
      note={single ? 'Only one day collected so far: the line starts with the next daily collection.' : undefined}
      legend={
        props.series.length > 1 ? (
          <ul class="chart-legend">
            {props.series.map((s) => (
              <li class={`chart-series-${s.tone}`}>
                <span class="chart-swatch" aria-hidden="true" />
                {s.name}
              </li>
            ))}
          </ul>
        ) : undefined
      }
      svg={
        <>
          <Axes f={f} />
          {props.series.map((s) => (
            <g class={`chart-series chart-series-${s.tone}`}>
              {runsOf(s.points)
                .filter((r) => r.length > 1)
                .map((r) => (
                  <polyline
                    class="chart-line"
                    points={r.map(({ i, v }) => `${f.x(i).toFixed(1)},${f.y(v).toFixed(1)}`).join(' ')}
                  />
                ))}
              {s.points.map((p, i) =>
                p.value === null ? null : (
                  <circle class="chart-point" cx={f.x(i).toFixed(1)} cy={f.y(p.value).toFixed(1)} r={single ? 6 : 3.5}>
                    <title>{`${s.name}, ${dayLabel(p.day)}: ${format(p.value)} ${props.unit}`}</title>
                  </circle>
                ),
              )}
            </g>
          ))}
        </>
      }
      table={
        <table class="chart-table">
          <thead>
            <tr>
              <th scope="col">Day</th>
              {props.series.map((s) => (
                <th scope="col">{s.name}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, i) => (
              <tr>
                <th scope="row">{day}</th>
                {props.series.map((s) => {
                  const v = s.points[i]?.value ?? null
                  return <td>{v === null ? '–' : format(v)}</td>
                })}
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  )
}
