/**
 * What the simulated network records beside a head post's text and media: the options it was
 * published with, as the network would apply them (default privacy, a title derived from the
 * caption where the registry says so). Its permalink page shows them.
 */
import { explicitTitle, mediaKindOf, targetTitle } from '../../domain/target-title'
import { rulesFor } from '../../domain/rules/index'
import type { TitleRules } from '../../domain/rules/schema'
import type { Board, TargetContent } from '../adapter'
import { sandboxDestinations } from './boards'

export function headOptions(content: TargetContent, boards: Board[], accountId: string): Record<string, unknown> {
  const rules = rulesFor(content.platform)
  const board = boards.find((b) => b.id === content.pinboardBoardId)
  const videoNet = rules.options.videoNetOptions
  const options: Record<string, unknown> = {
    // A text-only post has no media format: recording the fallback type would call it an image post.
    format: content.media.length > 0 ? content.type : null,
    title: titleOf(content, rules.title),
    board: board ? { id: board.id, name: board.name } : null,
    linkUrl: rules.options.linkUrl ? content.linkUrl : null,
    replyToMicropostId: content.replyToMicropostId,
    quoteMicropostId: content.quoteMicropostId,
    privacyLevel: videoNet ? (content.videoNetOptions?.privacyLevel ?? videoNet.defaultPrivacyLevel) : null,
    switches: videoNet ? switchesOf(content.videoNetOptions, videoNet.switches) : null,
    destination: destinationOf(content, accountId),
    // Each per-target option under its label, as the network's form would show it.
    ...Object.fromEntries(rules.options.fields.map((f) => [f.label, content.targetOptions[f.key] ?? null])),
  }
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== null && v !== undefined))
}

/** The chosen destination by name, where the network has destinations other than boards (shown above). */
function destinationOf(content: TargetContent, accountId: string): { id: string; name: string } | null {
  const options = rulesFor(content.platform).options
  if (options.destination === null || options.pinboardNetBoards !== null) return null
  const found = sandboxDestinations(content.platform, accountId).find((d) => d.id === content.destinationId)
  return found ? { id: found.id, name: found.name } : null
}

/** The switches set to true, by name; null when none is. */
function switchesOf(options: Record<string, unknown> | null, names: string[]): string[] | null {
  const on = names.filter((name) => options?.[name] === true)
  return on.length > 0 ? on : null
}

/** The published title: the one the rules' field sets, else the caption's first line, shortened to fit. */
function titleOf(content: TargetContent, rule: TitleRules | null): string | null {
  const explicit = explicitTitle(rule, { title: content.title, pinTitle: content.pinTitle })
  return targetTitle(rule, { explicit, text: content.text, mediaKind: mediaKindOf(content.media) })
}
