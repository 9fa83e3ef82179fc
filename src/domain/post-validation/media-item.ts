/**
 * One media item against one platform's rules for the format the post is published in:
 * kind, MIME type, file size, dimensions, aspect ratio, duration. A null width, height or
 * duration is unknown and fails nothing.
 */
import type { PlatformId, PostType } from '../vocabulary'
import type { FormatRules, ImageRules, MediaKind, VideoRules } from '../rules/schema'
import { rulesFor } from '../rules/index'
import { orList, ratio, seconds, sizePair } from './format'
import type { PlacedMedia, Violation } from './types'

/** Tolerance for aspect ratios computed from pixel sizes (1080 x 1350 is exactly 0.8). */
const RATIO_EPSILON = 1e-6

export interface ItemScope {
  platform: PlatformId
  format: PostType
  formatRules: FormatRules
}

export function checkItem(placed: PlacedMedia, scope: ItemScope): Violation[] {
  const { platform, format, formatRules } = scope
  const { index, item, kind } = placed
  const at = (message: string, limit?: number, actual?: number): Violation => ({
    code: 'media_not_supported',
    path: `mediaIds.${index}`,
    platform,
    message: `Item ${index + 1} (${item.id}): ${message}`,
    ...(limit !== undefined ? { limit } : {}),
    ...(actual !== undefined ? { actual } : {}),
  })

  const kindRules: ImageRules | VideoRules | null =
    kind === 'image' ? rulesFor(platform).media.image : rulesFor(platform).media.video
  if (kindRules === null) return [at(`${platform} takes no ${kind === 'image' ? 'images' : 'videos'}.`)]
  if (!formatRules.mediaKinds.includes(kind)) {
    return [
      at(
        `a ${format} on ${platform} takes ${orList(formatRules.mediaKinds.map(plural))} only, and this is ${kind === 'image' ? 'an image' : 'a video'}.`,
      ),
    ]
  }

  const out: Violation[] = []
  const mime = baseMime(item.mimeType)
  if (!mimeAccepted(mime, kindRules.mimeTypes)) {
    out.push(at(`${mime || 'an unknown type'} is not accepted by ${platform}; use ${orList(kindRules.mimeTypes)}.`))
  }
  const mimeCap = kindRules.maxSizeBytesByMimeType[mime] ?? null
  const maxSize = mimeCap ?? kindRules.maxSizeBytes
  if (maxSize !== null && item.sizeBytes > maxSize) {
    const [a, l] = sizePair(item.sizeBytes, maxSize)
    out.push(
      at(
        `the file is ${a}; ${platform} allows ${l}${mimeCap !== null ? ` for ${mime}` : ''}.`,
        maxSize,
        item.sizeBytes,
      ),
    )
  }
  out.push(...checkDimensions(placed, kindRules, scope, at))
  if (kind === 'video') out.push(...checkDuration(placed, kindRules as VideoRules, scope, at))
  return out
}

type At = (message: string, limit?: number, actual?: number) => Violation

function checkDimensions(placed: PlacedMedia, rules: ImageRules, scope: ItemScope, at: At): Violation[] {
  const { width, height } = placed.item
  const { platform } = scope
  const out: Violation[] = []
  const bound = (value: number | null, min: number | null, max: number | null, what: string) => {
    if (value === null) return
    if (min !== null && value < min)
      out.push(at(`${what} is ${value} px; ${platform} needs at least ${min} px.`, min, value))
    if (max !== null && value > max)
      out.push(at(`${what} is ${value} px; ${platform} allows at most ${max} px.`, max, value))
  }
  bound(width, rules.minWidth, rules.maxWidth, 'the width')
  bound(height, rules.minHeight, rules.maxHeight, 'the height')
  if (width === null || height === null) return out

  if (rules.maxPixels !== null && width * height > rules.maxPixels) {
    out.push(
      at(
        `${width} x ${height} is ${width * height} pixels; ${platform} allows ${rules.maxPixels}.`,
        rules.maxPixels,
        width * height,
      ),
    )
  }
  if (rules.maxWidthPlusHeight !== null && width + height > rules.maxWidthPlusHeight) {
    out.push(
      at(
        `width + height is ${width + height} px; ${platform} allows ${rules.maxWidthPlusHeight}.`,
        rules.maxWidthPlusHeight,
        width + height,
      ),
    )
  }
  if (height > 0) {
    const isImage = placed.kind === 'image'
    const min = (isImage ? scope.formatRules.minImageAspectRatio : null) ?? rules.minAspectRatio
    const max = (isImage ? scope.formatRules.maxImageAspectRatio : null) ?? rules.maxAspectRatio
    const actual = width / height
    const range = `${min !== null ? ratio(min) : 'any'} to ${max !== null ? ratio(max) : 'any'}`
    const where =
      isImage && (scope.formatRules.minImageAspectRatio ?? scope.formatRules.maxImageAspectRatio) !== null
        ? ` for a ${scope.format}`
        : ''
    if ((min !== null && actual < min - RATIO_EPSILON) || (max !== null && actual > max + RATIO_EPSILON)) {
      const limit = min !== null && actual < min ? min : (max as number)
      out.push(
        at(
          `the aspect ratio (width / height) is ${ratio(actual)}; ${platform} allows ${range}${where}. Crop it, or use POST /v1/media/{id}/variants.`,
          limit,
          actual,
        ),
      )
    }
  }
  return out
}

function checkDuration(placed: PlacedMedia, rules: VideoRules, scope: ItemScope, at: At): Violation[] {
  const duration = placed.item.durationSec
  if (duration === null) return []
  const { platform, format, formatRules } = scope
  const min = formatRules.minVideoDurationSec ?? rules.minDurationSec
  const max = formatRules.maxVideoDurationSec ?? rules.maxDurationSec
  const where =
    formatRules.minVideoDurationSec !== null || formatRules.maxVideoDurationSec !== null ? ` for a ${format}` : ''
  if (min !== null && duration < min)
    return [
      at(`the video lasts ${seconds(duration)}; ${platform} needs at least ${seconds(min)}${where}.`, min, duration),
    ]
  if (max !== null && duration > max)
    return [
      at(`the video lasts ${seconds(duration)}; ${platform} allows at most ${seconds(max)}${where}.`, max, duration),
    ]
  return []
}

/** `image/JPEG; q=1` -> `image/jpeg`. */
function baseMime(mimeType: string): string {
  return (mimeType.split(';', 1)[0] ?? '').trim().toLowerCase()
}

/** An entry `type/*` accepts the whole type. */
export function mimeAccepted(mime: string, accepted: readonly string[]): boolean {
  return accepted.some((entry) => {
    const e = entry.toLowerCase()
    return e.endsWith('/*') ? mime.startsWith(e.slice(0, -1)) && mime.length > e.length - 1 : mime === e
  })
}

function plural(kind: MediaKind): string {
  return kind === 'image' ? 'images' : 'videos'
}
