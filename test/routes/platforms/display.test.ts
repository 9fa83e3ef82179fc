import { describe, expect, it } from 'vitest'
import { RULES } from '../../../src/domain/rules/index'
import { PLATFORM_IDS } from '../../../src/domain/vocabulary'
import { createTestApp } from '../../support/test-app'

/** WCAG relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = Number.parseInt(hex.slice(i, i + 2), 16) / 255
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((m, n) => n - m)
  return (x! + 0.05) / (y! + 0.05)
}
/** The dark theme's background and card surface (styles/tokens.ts --color-bg, --color-surface). */
const DARK_SURFACES = ['#0f1217', '#171b22']
/** SVG path data: commands and numbers only, nothing that could carry markup, a script or a reference. */
const PATH_DATA = /^[MmLlHhVvCcSsQqTtAaZz0-9.,\s-]+$/

describe('GET /v1/platforms: how each network is shown', () => {
  it('carries every platform display name, colour, foreground and mark, the same as MCP and the dashboard read', async () => {
    const t = await createTestApp()
    const res = await t.call('GET', '/v1/platforms')
    expect(res.status).toBe(200)
    const body = (await res.json()) as Record<string, { display: { name: string; color: string; mark: string } }>
    for (const id of PLATFORM_IDS) {
      const display = body[id]!.display
      expect(display, id).toEqual(RULES[id].display)
      expect(display.name, id).toMatch(/^[A-Z][a-z]+( [a-z]+)?$/)
      expect(display.color, id).toMatch(/^#[0-9a-f]{6}$/)
      expect(display.mark.length, id).toBeGreaterThan(10)
    }
    const names = PLATFORM_IDS.map((id) => body[id]!.display.name)
    const colors = PLATFORM_IDS.map((id) => body[id]!.display.color)
    const marks = PLATFORM_IDS.map((id) => body[id]!.display.mark)
    expect(new Set(names).size).toBe(PLATFORM_IDS.length)
    expect(new Set(colors).size).toBe(PLATFORM_IDS.length)
    expect(new Set(marks).size).toBe(PLATFORM_IDS.length)
  })

  it('colours carry their foreground at 4.5:1 and stand at 3:1 on the dark theme', () => {
    for (const id of PLATFORM_IDS) {
      const { color, foreground } = RULES[id].display
      expect(contrast(color, foreground), id).toBeGreaterThanOrEqual(4.5)
      for (const surface of DARK_SURFACES)
        expect(contrast(color, surface), `${id} on ${surface}`).toBeGreaterThanOrEqual(3)
    }
  })

  it('marks are small SVG path data on the 24x24 grid: no markup, script or external reference', () => {
    for (const id of PLATFORM_IDS) {
      const { mark } = RULES[id].display
      expect(mark, id).toMatch(PATH_DATA)
      expect(mark, id).toMatch(/^M/)
      expect(mark.length, id).toBeLessThanOrEqual(400)
      // Absolute coordinates stay inside the viewBox (relative moves are small by construction).
      const numbers = mark.match(/-?\d*\.?\d+/g)!.map(Number)
      for (const n of numbers) expect(Math.abs(n), `${id}: ${n}`).toBeLessThanOrEqual(24)
    }
  })
})
