/**
 * A network shown the way the rules registry says (`RULES[p].display`): its mark in its colour, its
 * human name. The colour comes from a `.network-{PLATFORM_ID}` class (styles/components.ts) because the strict
 * CSP allows no inline style.
 */
import { RULES } from '../../domain/rules/index'
import type { PlatformId } from '../../domain/vocabulary'

/** The human name of a network ("Microblog"), for text where no mark fits (options, titles). */
export const networkName = (platform: PlatformId): string => RULES[platform].display.name

/** The class that gives an element the network's colours (`--network`, `--network-fg`). */
export const networkClass = (platform: PlatformId): string => `network-${platform}`

export interface NetworkMarkProps {
  platform: PlatformId
  size?: 'small' | 'medium' | 'large'
  /** Read the name aloud (true when the mark stands alone); false when the name is written beside it. */
  labelled?: boolean
}

/** The network's mark: its glyph in `--network-fg` on a rounded square of `--network`. */
export function NetworkMark(props: NetworkMarkProps) {
  const { display } = RULES[props.platform]
  const size = props.size && props.size !== 'medium' ? ` is-${props.size}` : ''
  const label = props.labelled ? { role: 'img', 'aria-label': display.name } : { 'aria-hidden': 'true' }
  return (
    <span class={`network-mark network-${props.platform}${size}`} {...label}>
      <svg viewBox="0 0 24 24" focusable="false" aria-hidden="true">
        <path d={display.mark} />
      </svg>
    </span>
  )
}

/** A chip with the network's mark and its name (`.chip.network-chip`); a link when `href` is given. */
export function NetworkChip(props: { platform: PlatformId; href?: string; label?: string }) {
  const cls = `chip network-chip network-${props.platform}`
  const body = [<NetworkMark platform={props.platform} />, <span>{props.label ?? networkName(props.platform)}</span>]
  return props.href ? (
    <a class={cls} href={props.href}>
      {body}
    </a>
  ) : (
    <span class={cls}>{body}</span>
  )
}
