/**
 * How a network's per-target options depend on each other, where the rules' `fields` (one value
 * each, as data) cannot say it: per platform, the problems of a target's options with its caption
 * and media, in words naming the options. The publisher of each network refuses what its check
 * finds; the simulated network applies the same check, so a sandbox account refuses what the real
 * network would; the post validator may ask it too when a post is to go out.
 */
import type { MediaKind } from './schema'
import type { PlatformId } from '../vocabulary'
import { planLocalPost, type OptionValues } from './local-network-checks'

export interface OptionCheckInput {
  values: OptionValues
  text: string
  media: MediaKind[]
}

export type OptionCheck = (input: OptionCheckInput) => string[]

export const OPTION_CHECKS: Partial<Record<PlatformId, OptionCheck>> = {
  LOCAL_NET: ({ values, text, media }) => {
    const planned = planLocalPost(values, { text, photos: media.filter((k) => k === 'image').length })
    return planned.ok ? [] : planned.problems
  },
}

/** The problems of `input` on `platform`; [] where the network has no such check. */
export const optionProblems = (platform: PlatformId, input: OptionCheckInput): string[] =>
  OPTION_CHECKS[platform]?.(input) ?? []
