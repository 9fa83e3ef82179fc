/**
 * The dry run of a create (`POST /v1/posts/validate`): the checks of ./check.ts, in create's
 * order and stopping where create would stop, with what create would refuse reported in the
 * answer instead of thrown, and what each target would publish. Nothing is written: the quota
 * and timing step runs in a transaction that is always rolled back.
 */
import type { Deps } from '../../deps'
import { tokenExpiryWarnings } from './token-warnings'
import { AppError, type ErrorCode } from '../../domain/errors'
import {
  notApplicableWarnings,
  type PostWarning,
  previewTarget,
  type TargetPreview,
  type ValidationAccount,
} from '../../domain/post-validation'
import type { PlatformId } from '../../domain/vocabulary'
import { assertLabels } from '../labels/labels'
import { admitCreate, assertCreatable, type CreateDraft, resolveCreate } from './check'
import type { CreatePostInput } from './types'

/** One thing create would refuse, as one detail of its 422 (`path` '' when it concerns the whole post). */
export interface PostIssue {
  code: ErrorCode
  message: string
  path: string
  platform?: string
  accountId?: string
  limit?: number
  actual?: number
}

export interface TargetCheck extends TargetPreview {
  accountId: string
  platform: PlatformId
  errors: PostIssue[]
  warnings: PostWarning[]
}

export interface PostCheckReport {
  /** Create would accept this body now. */
  valid: boolean
  targets: TargetCheck[]
  /** What concerns no single target (an account or media id not in the workspace, the plan's cap, the time). */
  errors: PostIssue[]
  warnings: PostWarning[]
}

type CheckDeps = Pick<Deps, 'db' | 'cipher' | 'networks' | 'clock'>

/** Thrown to roll the dry run's transaction back once its checks passed. */
class DryRunDone extends Error {}

export async function validateNewPost(
  deps: CheckDeps,
  workspaceId: string,
  input: CreatePostInput,
  bodyWarnings: PostWarning[] = [],
): Promise<PostCheckReport> {
  let draft: CreateDraft
  try {
    draft = await resolveCreate(deps.db, workspaceId, input)
  } catch (err) {
    // Ids not in the workspace: create's 422 and nothing more (no target of another workspace is shown).
    const errors = issuesOf(err)
    return { valid: false, targets: [], errors, warnings: bodyWarnings }
  }
  const issues = await refusalOf(async () => {
    await assertCreatable(deps, workspaceId, draft)
    await deps.db.transaction(async (tx) => {
      await admitCreate(tx, workspaceId, draft, deps.clock.now())
      // Create checks the labels last, in its transaction: a label not in the workspace is 422 `label_not_found`.
      await assertLabels(tx, workspaceId, input.labelIds ?? [])
      throw new DryRunDone()
    })
  })
  const dueAt = input.scheduledAt ? new Date(input.scheduledAt) : null
  const expiring = await tokenExpiryWarnings(deps, workspaceId, draft.accounts, dueAt)
  const warnings = [...bodyWarnings, ...notApplicableWarnings(draft.content, draft.accounts, issues), ...expiring]
  const targets = draft.accounts.map((account) => ({
    accountId: account.id,
    platform: account.platform,
    ...previewTarget(draft.content, account, draft.media),
    errors: issues.filter((i) => concerns(i, account)),
    warnings: warnings.filter((w) => w.accountId === account.id),
  }))
  return {
    valid: issues.length === 0,
    targets,
    errors: issues.filter((i) => !draft.accounts.some((a) => concerns(i, a))),
    warnings: warnings.filter((w) => !draft.accounts.some((a) => a.id === w.accountId)),
  }
}

/** An issue naming an account concerns that target; one naming only a platform, every target of it. */
function concerns(issue: PostIssue, account: ValidationAccount): boolean {
  if (issue.accountId !== undefined) return issue.accountId === account.id
  return issue.platform === account.platform
}

async function refusalOf(checks: () => Promise<void>): Promise<PostIssue[]> {
  try {
    await checks()
    return []
  } catch (err) {
    if (err instanceof DryRunDone) return []
    return issuesOf(err)
  }
}

/** Create's refusal, one issue per detail of its error body; anything but an `AppError` is not a refusal. */
function issuesOf(err: unknown): PostIssue[] {
  if (!(err instanceof AppError)) throw err
  if (!err.details || err.details.length === 0) return [{ code: err.code, message: err.message, path: '' }]
  return err.details.map(({ path, message, code, platform, accountId, limit, actual }) => ({
    code: typeof code === 'string' ? (code as ErrorCode) : err.code,
    message: message ?? err.message,
    path,
    ...(platform !== undefined ? { platform } : {}),
    ...(typeof accountId === 'string' ? { accountId } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(actual !== undefined ? { actual } : {}),
  }))
}
