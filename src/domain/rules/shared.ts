/**
 * Units and small builders for the rules data, so each network's entry states only what
 * differs from "no limit". Builders fill every field the schema requires with `null`,
 * `false` or `[]`; nothing here decides a rule.
 */
import type { PostType } from '../vocabulary'
import type {
  CanvasName,
  InboxRules,
  CaptionCounting,
  CaptionRules,
  FormatRules,
  ImageRules,
  LimitRule,
  MediaKind,
  PostOptionsRules,
  RecommendedSpec,
  TextBudget,
  TitleRules,
  VideoRules,
} from './schema'

/** Decimal units: where a network says "8 MB" without saying which, the smaller reading is used. */
export const KB = 1_000
export const MB = 1_000_000
export const GB = 1_000_000_000
export const MiB = 1024 * 1024
export const MINUTE = 60
export const HOUR = 3600
export const DAY = 86_400

/** The image canvases of `POST /v1/media/{id}/variants` (docs/decisions.md, "Media variants"). */
export const CANVASES: Record<CanvasName, { width: number; height: number }> = {
  feed_portrait: { width: 1080, height: 1350 },
  feed_square: { width: 1080, height: 1080 },
  landscape: { width: 1080, height: 566 },
  story: { width: 1080, height: 1920 },
}

export const SERVICE_THREAD_CAP = 25
export const SERVICE_THREAD_CAP_NOTE =
  "The network documents no cap on a reply chain; 25 follow-ups is this service's cap, to stay inside the network's posting rate limits."

export function textBudget(maxLength: number, counting: CaptionCounting, extra: Partial<TextBudget> = {}): TextBudget {
  return {
    maxLength,
    counting,
    urlWeight: null,
    maxBytes: null,
    normalization: null,
    mentionDomainFree: false,
    forbiddenCharacters: [],
    ...extra,
  }
}

export function caption(maxLength: number, counting: CaptionCounting, extra: Partial<CaptionRules> = {}): CaptionRules {
  return {
    ...textBudget(maxLength, counting),
    maxLengthWithImages: null,
    maxLengthWithVideo: null,
    maxHashtags: null,
    maxMentions: null,
    note: null,
    ...extra,
  }
}

/** A caption whose budget is an existing text budget (the same one thread parts use). */
export function captionFrom(budget: TextBudget, extra: Partial<CaptionRules> = {}): CaptionRules {
  return caption(budget.maxLength, budget.counting, { ...budget, ...extra })
}

export function title(
  maxLength: number,
  counting: CaptionCounting,
  extra: Partial<TitleRules> & Pick<TitleRules, 'required'>,
): TitleRules {
  return {
    ...textBudget(maxLength, counting),
    field: null,
    derivedFrom: 'caption_first_line',
    derivedOverflow: 'shorten',
    media: null,
    note: null,
    ...extra,
  }
}

type ImageInput = Partial<ImageRules> & Pick<ImageRules, 'mimeTypes' | 'maxItems'>
export function image(input: ImageInput): ImageRules {
  return {
    maxSizeBytes: null,
    maxSizeBytesByMimeType: {},
    minWidth: null,
    maxWidth: null,
    minHeight: null,
    maxHeight: null,
    maxPixels: null,
    maxWidthPlusHeight: null,
    minAspectRatio: null,
    maxAspectRatio: null,
    note: null,
    ...input,
  }
}

export function video(input: Partial<VideoRules> & Pick<VideoRules, 'mimeTypes'>): VideoRules {
  return { ...image({ maxItems: 1, ...input }), minDurationSec: null, maxDurationSec: null, ...input }
}

type FormatInput = Partial<Omit<FormatRules, 'type'>> & Pick<FormatRules, 'mediaKinds' | 'maxItems'>
export function format(type: PostType, input: FormatInput): FormatRules {
  return {
    type,
    minItems: 1,
    minImageAspectRatio: null,
    maxImageAspectRatio: null,
    minVideoDurationSec: null,
    maxVideoDurationSec: null,
    sameDimensions: false,
    note: null,
    ...input,
  }
}

export const IMAGE_OR_VIDEO: MediaKind[] = ['image', 'video']

/** A recommended size taken from a variants canvas. */
export function onCanvas(format: PostType, canvas: CanvasName, note: string | null = null): RecommendedSpec {
  return { format, canvas, ...CANVASES[canvas], note }
}

/** A recommended size no canvas produces (video frames, other ratios). */
export function sized(format: PostType, width: number, height: number, note: string | null = null): RecommendedSpec {
  return { format, canvas: null, width, height, note }
}

/** Every optional body field ignored; an entry overrides what applies on its network. */
export const NO_OPTIONS: PostOptionsRules = {
  firstComment: null,
  replyToMicropostId: false,
  quoteMicropostId: false,
  videoNetOptions: null,
  audio: null,
  pinboardNetBoards: null,
  pinboardNetOptions: null,
  linkUrl: null,
  destination: null,
  fields: [],
}

export function limit(
  action: LimitRule['action'],
  max: number,
  windowSec: number,
  note: string | null = null,
): LimitRule {
  return { action, max, windowSec, note }
}

/** Inbox rules: every action the entry does not name is not allowed; replies use the caption budget. */
export function inbox(allowed: Partial<InboxRules> = {}): InboxRules {
  return {
    comments: false,
    reply: false,
    hide: false,
    delete: false,
    like: false,
    mentions: false,
    replyMaxLength: null,
    note: null,
    ...allowed,
  }
}
