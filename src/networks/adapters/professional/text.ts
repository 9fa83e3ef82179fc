/**
 * The professional network's "little" text format: `commentary` is markup in which these
 * characters are reserved, and an unescaped one makes the network drop the rest of the post
 * silently. The publisher sends text exactly as written, so every reserved character is escaped.
 */
export const LITTLE_RESERVED = ['\\', '|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '*', '_', '~'] as const

const RESERVED = new RegExp(`[${LITTLE_RESERVED.map((c) => `\\${c}`).join('')}]`, 'g')

/** The text as the network shows it: each reserved character preceded by a backslash. */
export const escapeLittleText = (text: string): string => text.replace(RESERVED, (c) => `\\${c}`)

/** The inverse, for reading back a commentary we wrote (matching our own post among recent ones). */
export const unescapeLittleText = (text: string): string => text.replace(/\\(.)/gsu, '$1')
