/**
 * The image canvases seen from the networks' side: for each canvas of `create_variants`, its size and
 * ratio and the (platform, format) placements whose recommended size it is, read from the registry's
 * `recommended` entries, plus the recommended sizes no canvas produces. Derived, never stated twice.
 */
import { PLATFORM_IDS, type PlatformId, type PostType } from '../vocabulary'
import { RULES } from './index'
import { CANVAS_NAMES, type CanvasName } from './schema'
import { CANVASES } from './shared'

export interface Placement {
  platform: PlatformId
  format: PostType
}

export interface CanvasUsage {
  canvas: CanvasName
  width: number
  height: number
  /** Width / height, two decimals. */
  aspectRatio: number
  usedBy: Placement[]
}

export interface OtherSize extends Placement {
  width: number
  height: number
}

const ratioOf = (width: number, height: number) => Math.round((width / height) * 100) / 100

/** Every canvas with its placements, and the recommended sizes outside them. */
export function canvasUsage(): { canvases: CanvasUsage[]; otherSizes: OtherSize[] } {
  const canvases = CANVAS_NAMES.map((canvas) => {
    const { width, height } = CANVASES[canvas]
    return { canvas, width, height, aspectRatio: ratioOf(width, height), usedBy: [] as Placement[] }
  })
  const otherSizes: OtherSize[] = []
  for (const platform of PLATFORM_IDS) {
    for (const spec of RULES[platform].recommended) {
      const usage = canvases.find((c) => c.canvas === spec.canvas)
      const seen = (list: Placement[]) => list.some((p) => p.platform === platform && p.format === spec.format)
      if (usage && !seen(usage.usedBy)) usage.usedBy.push({ platform, format: spec.format })
      else if (!usage) otherSizes.push({ platform, format: spec.format, width: spec.width, height: spec.height })
    }
  }
  return { canvases, otherSizes }
}
