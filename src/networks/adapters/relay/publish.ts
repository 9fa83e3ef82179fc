/**
 * Publishing a note and its thread parts exactly once. An event's id is the hash of its content,
 * so each event is signed once and saved in the target's progress BEFORE it is sent: a retry sends
 * the same event again, and a relay that already has it answers OK "duplicate:" — the note never
 * appears twice. Success is one relay's OK true; a relay's refusal is a warning while another one
 * accepted; all refusing is a rejection, and silence (timeouts) is transient, retried.
 */
import type { Event } from 'nostr-tools'
import { neventEncode } from 'nostr-tools/nip19'
import type { PublishInput, PublishProgress, PublishResult } from '../../adapter'
import { NetworkFailure } from '../../http'
import type { RelaySockets } from '../../sockets'
import { headNote, replyNote } from './events'
import type { Signer } from './signer'
import { query, sendEvent, type RelayAnswer } from './wire'

export interface RelayProgress extends PublishProgress {
  /** Every event signed so far, head first, saved before it is sent (the same event on every retry). */
  signed?: Event[]
  /** How many of `signed` at least one relay accepted. */
  accepted?: number
  /** Refusals of single relays while another accepted, shown as warnings. */
  refusals?: string[]
}

export interface Ctx {
  input: PublishInput
  progress: RelayProgress
  signer: Signer
  sockets: RelaySockets
  relays: string[]
  deadlineMs: number
}

/** NIP-21: the note as a `nostr:` URI, with a relay that has it and its author. */
export const permalinkOf = (event: Event, relay: string | undefined) =>
  `nostr:${neventEncode({ id: event.id, author: event.pubkey, relays: relay ? [relay] : [] })}`

/** One event to every write relay; settles on the relays' answers together. */
export async function broadcast(ctx: Ctx, event: Event): Promise<RelayAnswer[]> {
  const answers = await Promise.all(ctx.relays.map((r) => sendEvent(ctx.sockets, r, event, ctx.deadlineMs)))
  if (answers.some((a) => a.outcome === 'accepted')) return answers
  const said = answers.map((a) => `${a.relay}: ${a.message}`).join('; ')
  const rateLimited = answers.some((a) => a.outcome === 'refused' && a.message.startsWith('rate-limited:'))
  if (answers.every((a) => a.outcome === 'refused') && !rateLimited)
    throw new NetworkFailure('rejected', `RELAY_NET: every relay refused the note (${said})`)
  throw new NetworkFailure(
    rateLimited ? 'rate_limited' : 'transient',
    `RELAY_NET: no relay accepted the note yet (${said})`,
  )
}

async function save(ctx: Ctx): Promise<void> {
  await ctx.input.saveProgress(ctx.progress)
}

/** The event at `index`: the one already signed, or a new one signed and saved before it goes out. */
async function eventAt(ctx: Ctx, index: number): Promise<Event> {
  const signed = ctx.progress.signed ?? []
  const existing = signed[index]
  if (existing) return existing
  const { content, now } = ctx.input
  const head = signed[0]
  const template =
    index === 0
      ? headNote(content.text, content.media, now)
      : replyNote(
          content.threadParts[index - 1]!,
          { rootId: head!.id, parentId: signed[index - 1]!.id, author: ctx.signer.pubkey, relay: ctx.relays[0]! },
          now,
        )
  const event = await ctx.signer.sign(template)
  ctx.progress = { ...ctx.progress, signed: [...signed.slice(0, index), event] }
  await save(ctx)
  return event
}

/** Head, then each part, resuming after the last one a relay accepted. */
export async function publishFlow(ctx: Ctx): Promise<PublishResult> {
  const total = 1 + ctx.input.content.threadParts.length
  for (let index = ctx.progress.accepted ?? 0; index < total; index++) {
    const event = await eventAt(ctx, index)
    const answers = await broadcast(ctx, event)
    markAccepted(ctx, index, answers)
    await save(ctx)
  }
  const head = ctx.progress.signed![0]!
  const warnings = ctx.progress.refusals ?? []
  return {
    status: 'published',
    platformPostId: head.id,
    permalink: ctx.progress.headPermalink ?? permalinkOf(head, ctx.relays[0]),
    ...(warnings.length > 0 ? { warnings } : {}),
  }
}

function markAccepted(ctx: Ctx, index: number, answers: RelayAnswer[]): void {
  const event = ctx.progress.signed![index]!
  const by = answers.find((a) => a.outcome === 'accepted')?.relay
  const refusals = answers
    .filter((a) => a.outcome !== 'accepted')
    .map((a) => `${index === 0 ? 'The note' : `Part ${index + 1}`} was not stored by ${a.relay}: ${a.message}`)
  const progress = ctx.progress
  ctx.progress = {
    ...progress,
    accepted: index + 1,
    refusals: [...(progress.refusals ?? []), ...refusals],
    ...(index === 0
      ? { headId: event.id, headPermalink: permalinkOf(event, by) }
      : { partIds: [...(progress.partIds ?? []), event.id] }),
  }
}

/**
 * After a lost claim: is the first event signed but not confirmed on any relay? Found on one:
 * it went out (the flow resumes after it). Every relay answered EOSE without it: absent. Else
 * nobody can tell yet (transient).
 */
export async function reconcileFlow(ctx: Ctx): Promise<PublishResult> {
  const index = ctx.progress.accepted ?? 0
  const event = ctx.progress.signed?.[index]
  if (!event) return index === 0 ? { status: 'absent' } : publishFlow(ctx)
  const answers = await Promise.all(ctx.relays.map((r) => query(ctx.sockets, r, { ids: [event.id] }, ctx.deadlineMs)))
  const found = answers.find((a) => a.events.some((e) => e.id === event.id))
  if (found) {
    markAccepted(ctx, index, [{ relay: found.relay, outcome: 'accepted', message: '' }])
    await save(ctx)
    return publishFlow(ctx)
  }
  if (answers.every((a) => a.complete)) return index === 0 ? { status: 'absent' } : publishFlow(ctx)
  const silent = answers.filter((a) => !a.complete).map((a) => `${a.relay}: ${a.message}`)
  throw new NetworkFailure(
    'transient',
    `RELAY_NET: the relays could not say whether the note is there (${silent.join('; ')})`,
  )
}
