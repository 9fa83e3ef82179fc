/**
 * What a file is, from its first bytes (never from a name or a caller's claim). The list is what
 * the service accepts for upload; anything else is `media_not_supported`.
 */
export const SUPPORTED_MIME_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/tiff',
  'video/mp4',
  'video/quicktime',
  'video/x-m4v',
  'video/webm',
] as const
export type SupportedMimeType = (typeof SUPPORTED_MIME_TYPES)[number]
export type MediaType = 'IMAGE' | 'VIDEO'

export const mediaTypeOf = (mime: SupportedMimeType): MediaType => (mime.startsWith('image/') ? 'IMAGE' : 'VIDEO')

const ALIASES: Record<string, SupportedMimeType> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'image/x-ms-bmp': 'image/bmp',
  'video/x-quicktime': 'video/quicktime',
}

/** A MIME type as callers write it (`Image/JPG; charset=…`), reduced to ours; null when not supported. */
export function normalizeMimeType(value: string): SupportedMimeType | null {
  const bare = value.split(';')[0]!.trim().toLowerCase()
  const mime = ALIASES[bare] ?? bare
  return (SUPPORTED_MIME_TYPES as readonly string[]).includes(mime) ? (mime as SupportedMimeType) : null
}

const ascii = (b: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...b.subarray(start, start + length))

/** The MIME type the bytes are, or null when they are none of the supported kinds. Needs the first 64 bytes. */
export function sniffMimeType(head: Uint8Array): SupportedMimeType | null {
  if (head.length < 12) return null
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg'
  if (head[0] === 0x89 && ascii(head, 1, 3) === 'PNG') return 'image/png'
  if (ascii(head, 0, 4) === 'GIF8') return 'image/gif'
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP') return 'image/webp'
  if (ascii(head, 0, 2) === 'BM') return 'image/bmp'
  if (ascii(head, 0, 4) === 'II*\0' || ascii(head, 0, 4) === 'MM\0*') return 'image/tiff'
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) {
    // EBML: WebM declares its DocType near the start; other Matroska files are not supported.
    return ascii(head, 0, Math.min(head.length, 64)).includes('webm') ? 'video/webm' : null
  }
  if (ascii(head, 4, 4) === 'ftyp') {
    const brand = ascii(head, 8, 4)
    if (brand === 'qt  ') return 'video/quicktime'
    if (brand === 'M4V ' || brand === 'M4VH' || brand === 'M4VP') return 'video/x-m4v'
    // HEIF/AVIF stills and audio-only MP4s are not videos we can post.
    if (/^(heic|heix|hevc|hevx|heim|heis|mif1|msf1|avif|avis|M4A |M4B |M4P )$/.test(brand)) return null
    return 'video/mp4'
  }
  return null
}

/** The usual file extension of a supported type, for readable storage keys. */
export const EXTENSIONS: Record<SupportedMimeType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/bmp': 'bmp',
  'image/tiff': 'tif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/x-m4v': 'm4v',
  'video/webm': 'webm',
}
