import type { AudioKind } from '../domain/rules/audio-catalogues'
import type { PlatformId, PostType, TargetErrorCode } from '../domain/vocabulary'
import type { InboxAdapterMethods } from './inbox-adapter'

export * from './inbox-adapter'

/**
 * What every network adapter implements (docs/architecture.md, "Where things go"). Adapters never
 * read env, the database or a request: they get plain data, `fetch` and the network's base URL, so
 * a test points them at a loopback fake.
 */
export interface NetworkAdapter extends InboxAdapterMethods {
  /**
   * Head post, thread parts, first comment; resumes from `input.progress`. Whatever the network
   * answers (or fails to) is a `PublishResult`; an error of our own code is thrown, not classified,
   * here and in `checkStatus` and `credentialRefresh.refresh`.
   */
  publish(input: PublishInput): Promise<PublishResult>
  /** Containers or uploads still processing (`pending`), or a publish whose outcome is unknown. */
  checkStatus?(input: PendingInput): Promise<PublishResult>
  fetchInsights?(input: InsightsInput): Promise<Insights>
  deletePost?(input: DeleteInput): Promise<void>
  listBoards?(input: BoardsInput): Promise<Board[]>
  /**
   * The places this account publishes into, where the rules registry has `options.destination`
   * (subreddits, channels, communities...): what `destinations.<accountId>` takes. Throws a
   * `NetworkFailure` when the network refuses.
   */
  listDestinations?(input: BoardsInput): Promise<Destination[]>
  /**
   * A page of the network's audio catalogue for reels, as this account may use it (search with
   * `query`, next page with `cursor`). Only where the rules registry names the connection
   * (`options.audio.catalogue`). Throws a `NetworkFailure` when the network refuses.
   */
  listAudio?(input: AudioInput): Promise<AudioPage>
  /**
   * Calls the network once with these credentials and says whose they are (`account add`).
   * Throws a `NetworkFailure` (networks/http.ts) when the network refuses them.
   */
  verifyCredentials?(input: VerifyInput): Promise<VerifiedAccount>
  /**
   * Every identity a hosted sign-in grants (a member's pages, channels, organisations), each with
   * the credentials that act as it; the owner chooses which to connect. Absent: the sign-in is one
   * identity, read by `verifyCredentials`.
   */
  listIdentities?(input: VerifyInput): Promise<VerifiedAccount[]>
  /** For tokens that expire: when to renew them, and how. The service saves what `refresh` returns. */
  credentialRefresh?: CredentialRefresh
}

export interface VerifyInput {
  connection: string
  credentials: Record<string, unknown>
  fetch: typeof fetch
  baseUrl: string
  now: Date
}

export interface VerifiedAccount {
  /** The account's name as the network shows it (handle, page name, channel title...). */
  username: string
  /** The network's own id of the account (user id, page id, DID, chat id...). */
  externalId: string
  /** The credentials to store: the input's, completed with what the network answered (ids, a session). */
  credentials: Record<string, unknown>
  /** The caption budget the network reports for this account (a paid tier); absent: the platform's. */
  captionMaxLength?: number | null
}

export interface CredentialRefresh {
  /** True when these credentials must be renewed before the next call (expired, or about to). */
  isDue(credentials: Record<string, unknown>, now: Date): boolean
  /**
   * Renews them. The result replaces the stored credentials in one write, under a lock on the
   * account, so a rotated refresh token is never lost to a concurrent refresh.
   */
  refresh(input: RefreshInput): Promise<RefreshResult>
}

export interface RefreshInput {
  connection: string
  credentials: Record<string, unknown>
  fetch: typeof fetch
  baseUrl: string
  now: Date
}

export type RefreshResult =
  | { status: 'refreshed'; credentials: Record<string, unknown>; captionMaxLength?: number | null }
  | { status: 'failed'; kind: FailureKind; message: string; retryAfterSec?: number }

export interface PublishMedia {
  id: string
  type: 'IMAGE' | 'VIDEO'
  url: string
  mimeType: string
  sizeBytes: number
  width: number | null
  height: number | null
  durationSec: number | null
  altText: string | null
}

/** The content of one target, already resolved for its platform (override applied, fallback format). */
export interface TargetContent {
  platform: PlatformId
  /** The format after the platform's fallback. */
  type: PostType
  text: string
  media: PublishMedia[]
  /** Only on platforms with a thread model; [] otherwise. */
  threadParts: string[]
  firstComment: string | null
  replyToMicropostId: string | null
  quoteMicropostId: string | null
  videoNetOptions: Record<string, unknown> | null
  audio: Record<string, unknown> | null
  pinboardBoardId: string | null
  pinTitle: string | null
  linkUrl: string | null
  /**
   * The title, where the rules registry has `title`: the body's `title` where `title.field` is
   * `title`, else derived as `title.derivedFrom` says (shortened per `title.derivedOverflow`);
   * null where the platform has no title, or nothing to derive it from.
   */
  title: string | null
  /** `destinations.<accountId>`: where the rules registry has `options.destination`; null when none was chosen. */
  destinationId: string | null
  /** `targetOptions.<accountId>`, checked against the registry's `options.fields`; {} when none. */
  targetOptions: Record<string, string | number | boolean | string[]>
}

/** What a multi-step publish has done so far; stored on the target after every step. */
export interface PublishProgress {
  /** Network id of the head post, once it exists. */
  headId?: string
  headPermalink?: string
  /** Network ids of thread parts that went out, in order. */
  partIds?: string[]
  firstComment?: 'posted' | 'refused' | 'skipped'
  /** Adapter-specific state for checkStatus (container ids, upload ids...). */
  pending?: unknown
  [extra: string]: unknown
}

export interface PublishInput {
  /** Stable for the target: use it as the network's idempotency key where there is one. */
  idempotencyKey: string
  accountId: string
  connection: string
  credentials: Record<string, unknown>
  content: TargetContent
  progress: PublishProgress
  /** Persists progress at once (call after each network post is created), so a retry resumes. */
  saveProgress(progress: PublishProgress): Promise<void>
  /** 1 for the first try. */
  attempt: number
  fetch: typeof fetch
  baseUrl: string
  /** The engine's clock (timestamps the network wants, token expiry). */
  now: Date
}

export interface PendingInput extends Omit<PublishInput, 'saveProgress'> {
  saveProgress(progress: PublishProgress): Promise<void>
  /** True when the engine lost track of a publish (lease expired): confirm whether it exists. */
  unconfirmed: boolean
}

/** `unconfirmed`: a send went unanswered and the network cannot tell whether it arrived (the user checks). */
export type FailureKind = TargetErrorCode

export type PublishResult =
  | { status: 'published'; platformPostId: string; permalink: string; warnings?: string[] }
  | { status: 'pending'; state: unknown; checkAfterSec: number }
  | {
      status: 'failed'
      kind: FailureKind
      message: string
      retryAfterSec?: number
      /** A rejection the network says a manual retry gets through (the sandbox's fail mode `once`); default by kind. */
      retryable?: boolean
      /**
       * `unconfirmed` from the answer itself (unreadable, or a success without the id: http.ts
       * `UnconfirmedAnswer`): the engine asks `checkStatus` whether the post exists before anything else.
       */
      reconcile?: boolean
    }
  /** Only from checkStatus on an unconfirmed publish: the network has no such post. */
  | { status: 'absent' }

export interface InsightsInput {
  accountId: string
  connection: string
  credentials: Record<string, unknown>
  /** Network ids of published posts to read metrics for. */
  posts: Array<{ targetId: string; platformPostId: string; publishedAt: Date }>
  fetch: typeof fetch
  baseUrl: string
  now: Date
}

/** `null` means the network reports nothing, never 0. */
export interface Insights {
  followers: number | null
  posts: Array<{
    targetId: string
    likes: number | null
    comments: number | null
    shares: number | null
    views: number | null
    saves: number | null
    clicks?: number | null
    impressions?: number | null
    reach?: number | null
  }>
}

export interface DeleteInput {
  connection: string
  credentials: Record<string, unknown>
  platformPostId: string
  fetch: typeof fetch
  baseUrl: string
  /** The engine's clock (token expiry, a `Retry-After` date). */
  now: Date
}

export interface BoardsInput {
  accountId: string
  connection: string
  credentials: Record<string, unknown>
  fetch: typeof fetch
  baseUrl: string
  /** The engine's clock (token expiry, a `Retry-After` date). */
  now: Date
}

export interface Board {
  id: string
  name: string
  privacy: string
}

/** One place an account publishes into (`listDestinations`). */
export interface Destination {
  /** What `destinations.<accountId>` takes. */
  id: string
  /** What people see (a subreddit's name, a channel's name...). */
  name: string
  description: string | null
}

export interface AudioInput extends BoardsInput {
  kind: AudioKind
  /** Words to search for; null: what the network offers without a search (its trending tracks). */
  query: string | null
  /** `nextCursor` of the previous page; null: the first page. */
  cursor: string | null
}

/** One track, as a REEL post's `audio.audioId` takes it. */
export interface AudioTrack {
  id: string
  title: string
  artist: string | null
  durationSec: number | null
}

export interface AudioPage {
  audio: AudioTrack[]
  /** Passed back as `cursor` for the next page; null on the last one. */
  nextCursor: string | null
}
