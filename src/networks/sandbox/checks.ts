/**
 * Why the simulated network refuses a publish, checked before it stores anything: the board of a
 * pinboard pin, the platform's registry rules (the same validator as create and edit, so the
 * same counting), then the account's fail mode: `once` and `transient` fail the first attempt
 * (rejected but retryable by hand, or transient so the engine retries it), `always` every attempt.
 */
import { SANDBOX_FAIL_MODES, type SandboxFailMode } from '../../domain/vocabulary'
import { rulesFor } from '../../domain/rules/index'
import { validatePostContent, type PostContent, type VideoNetAccountOptions } from '../../domain/post-validation'
import type { Board, PublishInput, PublishResult } from '../adapter'
import { sandboxDestinations } from './boards'

type Failure = Extract<PublishResult, { status: 'failed' }>

const rejected = (message: string): Failure => ({ status: 'failed', kind: 'rejected', message })

/** The first reason to refuse `input`, or null when the network takes it. */
export function refusal(input: PublishInput, boards: Board[]): Failure | null {
  return boardProblem(input, boards) ?? destinationProblem(input) ?? ruleProblem(input) ?? failModeProblem(input)
}

/** A target goes to one of the account's destinations where its network has them; the network knows no other. */
function destinationProblem(input: PublishInput): Failure | null {
  const options = rulesFor(input.content.platform).options
  // The pinboard network's destination is its board, checked above.
  if (options.destination === null || options.pinboardNetBoards !== null) return null
  const { noun } = options.destination
  const id = input.content.destinationId?.trim() ?? ''
  const pick = `pick one from GET /v1/accounts/${input.accountId}/destinations`
  if (id === '') return options.destination.requiredToPublish ? rejected(`no ${noun}: ${pick}.`) : null
  if (!sandboxDestinations(input.content.platform, input.accountId).some((d) => d.id === id))
    return rejected(`${noun} ${id} does not exist on this account: ${pick}.`)
  return null
}

/** A pin needs one of the account's boards; the network knows no other. */
function boardProblem(input: PublishInput, boards: Board[]): Failure | null {
  if (rulesFor(input.content.platform).options.pinboardNetBoards?.requiredToPublish !== true) return null
  const boardId = input.content.pinboardBoardId?.trim() ?? ''
  const pick = `pick one from GET /v1/accounts/${input.accountId}/boards`
  if (boardId === '') return rejected(`no board: ${pick}.`)
  if (!boards.some((b) => b.id === boardId))
    return rejected(`board ${boardId} does not exist on this account: ${pick}.`)
  return null
}

/** Every registry rule the content breaks, as one message; the validator runs for this single account. */
function ruleProblem(input: PublishInput): Failure | null {
  const { platform } = input.content
  const violations = validatePostContent({
    content: asPostContent(input),
    accounts: [{ id: input.accountId, platform, connection: 'SANDBOX' }],
    media: input.content.media,
    intent: 'publish',
  })
  if (violations.length === 0) return null
  return rejected(`${platform} refused the post: ${violations.map((v) => v.message).join(' ')}`)
}

/**
 * The target's content as a post body with one account. A network ignores what it does not
 * take: a first comment where the format has none, and `audio`, which goes only through a
 * connection the sandbox is not (the validator would refuse both). The pin title is left to
 * the network: the engine may hand over the caption's first line, which is shortened, not
 * refused (registry `title.derivedOverflow`); an explicit one was checked on create.
 */
function asPostContent({ accountId, content }: PublishInput): PostContent {
  const options = rulesFor(content.platform).options
  const entry = <T>(value: T | null, applies: boolean) => (value !== null && applies ? { [accountId]: value } : null)
  const takesComment = options.firstComment?.formats.includes(content.type) === true
  return {
    type: content.type,
    caption: content.text,
    captionOverrides: null,
    mediaIds: content.media.map((m) => m.id),
    threadParts: content.threadParts.length > 0 ? content.threadParts : null,
    firstComment: takesComment ? content.firstComment : null,
    replyToMicropostId: content.replyToMicropostId,
    quoteMicropostId: content.quoteMicropostId,
    videoNetOptions: entry(content.videoNetOptions as VideoNetAccountOptions | null, options.videoNetOptions !== null),
    audio: null,
    pinboardNetBoards: entry(content.pinboardBoardId, options.pinboardNetBoards !== null),
    pinboardNetOptions: null,
    linkUrl: content.linkUrl,
    title: rulesFor(content.platform).title?.field === 'title' ? content.title : null,
    destinations: entry(content.destinationId, options.destination !== null),
    targetOptions: entry(content.targetOptions, options.fields.length > 0),
  }
}

function failModeOf(credentials: Record<string, unknown>): SandboxFailMode {
  const mode = credentials.failMode
  return (SANDBOX_FAIL_MODES as readonly unknown[]).includes(mode) ? (mode as SandboxFailMode) : 'never'
}

function failModeProblem(input: PublishInput): Failure | null {
  const mode = failModeOf(input.credentials)
  const first = input.attempt <= 1
  if (mode === 'always') return rejected('The sandbox network rejects every post of this account (fail mode "always").')
  // A retry by hand publishes it, so the target error says `retryable`, as its message does.
  if (mode === 'once' && first)
    return {
      ...rejected('The sandbox network rejected the first attempt (fail mode "once"); retry the target to publish it.'),
      retryable: true,
    }
  if (mode === 'transient' && first) {
    return {
      status: 'failed',
      kind: 'transient',
      message: 'The sandbox network is briefly unavailable (fail mode "transient"); it is retried automatically.',
      retryAfterSec: 1,
    }
  }
  return null
}
