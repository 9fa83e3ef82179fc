import { type AccountRow, findAccount } from '../../db/queries/accounts'
import { saveTargetProgress } from '../../db/queries/targets'
import type { Deps } from '../../deps'
import { failedOnOurSide, RECONNECT_MESSAGE } from '../../domain/publishing/decision'
import { describeError } from '../../infra/logger'
import { isDatabaseUnavailable } from '../../db/unavailable'
import { asFailedResult, NetworkFailure } from '../../networks/http'
import type { NetworkAdapter, PendingInput, PublishInput, PublishProgress, PublishResult } from '../../networks/adapter'
import { claimTarget, type ClaimedTarget } from './claim'
import { DEFAULT_PUBLISH_POLICY, type PublishPolicy } from '../../domain/publishing/policy'
import { recordResult, type PublishOutcome } from './record-result'
import { buildTargetContent, missingDestination } from './target-content'
import { usableCredentials, type UsableCredentials } from '../accounts/credentials'

export type { PublishOutcome }

export interface DeliveryRef {
  targetId: string
  version: number
}

export const policyOf = (deps: Pick<Deps, 'settings'>): PublishPolicy => ({
  ...DEFAULT_PUBLISH_POLICY,
  ...deps.settings.publishing,
})

/**
 * The one function every delivery path calls (QStash callback, in-process queue, sweep):
 * claim the target, build its platform's content, call the adapter, record what happened.
 * Safe to call any number of times for the same delivery: only one call claims the target.
 */
export async function publishTarget(deps: Deps, delivery: DeliveryRef): Promise<PublishOutcome> {
  const policy = policyOf(deps)
  const now = deps.clock.now()
  const holder = deps.settings.leaseHolder ?? null
  const claimed = await claimTarget(deps.db, delivery.targetId, delivery.version, now, policy.leaseSec, holder)
  if (!claimed) return 'skipped'
  const progress: PublishProgress = { ...(claimed.target.progress ?? {}) }
  const result = await callNetwork(deps, claimed, progress, false)
  if (!result) return 'skipped'
  return recordResult(deps, policy, claimed, result, progress)
}

/**
 * Calls the account's adapter: `checkStatus` when a network job is pending or the outcome is
 * unconfirmed, else `publish`. A `NetworkFailure` an adapter throws keeps its class; any other
 * exception (a bug, the adapter's or ours) is logged once as `publish_unexpected_error` and becomes
 * a transient failure whose message says it failed on our side. Nothing of such an error reaches a
 * user or a log line but its class: its text may quote a network's answer or a token. A database
 * that cannot be reached is thrown on: the delivery fails, and its claim waits to be resolved.
 */
export async function callNetwork(
  deps: Deps,
  claimed: ClaimedTarget,
  progress: PublishProgress,
  unconfirmed: boolean,
  /** The account, when the caller read it already (a batch claim reads its accounts at once). */
  preloaded?: AccountRow | null,
  /**
   * Writes the claim's "call started" marker just before the adapter is called (a batch claim); false
   * when the claim is no longer ours: then nothing is called and the answer is null.
   */
  markStarted?: () => Promise<boolean>,
): Promise<PublishResult | null> {
  const { target, post } = claimed
  const account = preloaded !== undefined ? preloaded : await findAccount(deps.db, target.accountId)
  if (!account) return { status: 'failed', kind: 'rejected', message: 'The account was removed.' }
  if (account.status !== 'ACTIVE') {
    return account.status === 'EXPIRED'
      ? { status: 'failed', kind: 'auth_expired', message: account.statusMessage ?? RECONNECT_MESSAGE }
      : {
          status: 'failed',
          kind: 'rejected',
          message: 'The account is disconnected: reconnect it, then retry.',
          retryable: true,
        }
  }
  const platform = target.platform
  const connection = account.connection
  const adapter = deps.networks.adapterFor(platform, connection)
  if (!adapter)
    return {
      status: 'failed',
      kind: 'rejected',
      message: `Publishing to ${platform} through ${connection} is not available in this version.`,
    }
  try {
    const usable = await usableCredentials(deps, account, adapter)
    if (!usable.ok) return failedFrom(usable)
    const input: PublishInput = {
      idempotencyKey: target.id,
      accountId: account.id,
      connection,
      credentials: usable.credentials,
      content: await buildTargetContent(deps.db, post, account.id, platform),
      progress,
      saveProgress: async (next) => {
        Object.assign(progress, next)
        await saveTargetProgress(deps.db, target.id, progress)
      },
      attempt: target.attempts,
      fetch: deps.networks.fetch,
      baseUrl: deps.networks.baseUrlFor(platform, connection, usable.credentials),
      now: deps.clock.now(),
    }
    const unplaced = missingDestination(input.content, account.id)
    if (unplaced) return unplaced
    const call = (args: PublishInput) =>
      (progress.pending !== undefined || unconfirmed) && adapter.checkStatus
        ? adapter.checkStatus({ ...args, unconfirmed } satisfies PendingInput)
        : adapter.publish(args)
    if (unconfirmed && !adapter.checkStatus) return { status: 'failed', kind: 'transient', message: 'unconfirmed' }
    if (markStarted && !(await markStarted())) return null
    const result = await reconcile(adapter, input, await call(input), unconfirmed)
    // A token the network no longer takes, though it was not due: renew it once and try again.
    if (
      result.status === 'failed' &&
      result.kind === 'auth_expired' &&
      adapter.credentialRefresh &&
      !usable.refreshed
    ) {
      const renewed = await usableCredentials(deps, account, adapter, { force: true })
      if (!renewed.ok) return failedFrom(renewed)
      const again = {
        ...input,
        credentials: renewed.credentials,
        baseUrl: deps.networks.baseUrlFor(platform, connection, renewed.credentials),
      }
      return await reconcile(adapter, again, await call(again), unconfirmed)
    }
    return result
  } catch (err) {
    // A classified network failure keeps its class, whichever step of an adapter threw it.
    if (err instanceof NetworkFailure) return asFailedResult(err)
    // Not the network's failure nor a bug: the delivery fails as a whole, and its claim is resolved
    // once the database answers again (stranded.ts), as a restart would resolve it.
    if (isDatabaseUnavailable(err)) throw err
    deps.logger.error('publish_unexpected_error', {
      targetId: target.id,
      postId: post.id,
      platform,
      errorClass: errorClassOf(err),
    })
    return failedOnOurSide(platform)
  }
}

/** An error's class for a log line: its name only, never its text. */
function errorClassOf(err: unknown): string {
  return String(describeError(err).errorType)
}

/**
 * A publish whose outcome the network left unknown (`unconfirmed`: its answer could not be read, or
 * said success without the post) is settled by asking the network at once, as the sweep asks about
 * a lost claim (`checkStatus` with `unconfirmed`, which never creates): published or still
 * processing settles it; absent means nothing was made, so it is retried like a transient failure
 * (never sent again blindly); a network that cannot tell leaves it `unconfirmed` in its own words.
 * The same holds for a pending job's step (a container published, an upload finished); the sweep's
 * own question is not asked again.
 */
async function reconcile(
  adapter: NetworkAdapter,
  input: PublishInput,
  result: PublishResult,
  /** The call was already that question (the sweep's): its answer is final. */
  asking: boolean,
): Promise<PublishResult> {
  if (asking || result.status !== 'failed' || !result.reconcile || !adapter.checkStatus) return result
  const { reconcile: _asked, ...failure } = result
  const asked = await adapter.checkStatus({ ...input, unconfirmed: true }).catch((err: unknown) => asFailedResult(err))
  if (asked.status === 'published' || asked.status === 'pending') return asked
  if (asked.status === 'absent')
    return { status: 'failed', kind: 'transient', message: `${result.message} It has no such post: sending it again.` }
  return {
    ...failure,
    message: `${result.message} It cannot tell whether the post is there: check the account, and use retry only if it is not.`,
  }
}

function failedFrom(usable: Extract<UsableCredentials, { ok: false }>): PublishResult {
  return {
    status: 'failed',
    kind: usable.kind,
    message: usable.message,
    ...(usable.retryAfterSec !== undefined ? { retryAfterSec: usable.retryAfterSec } : {}),
  }
}
