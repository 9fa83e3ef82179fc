/**
 * The notifications the service raises itself, each in the transaction of the change it reports:
 * a target that failed (the engine), an account that needs reconnecting, an account whose token ends
 * before a scheduled post (at schedule time). Who receives each: docs/notifications.md.
 */
import { selectAccountName, selectPostCreator } from '../../db/queries/notification-subjects'
import type { DbOrTx } from '../../db/types'
import type { MemberRole } from '../../domain/people'
import { notify } from './notify'

const MANAGERS: MemberRole[] = ['owner', 'admin']

const accountLabel = (a: { username: string; platform: string } | null, accountId: string) =>
  a ? `${a.platform} account ${a.username}` : `account ${accountId}`

/** A target settled FAILED: its post's creator when a person made it, else the owners and admins. */
export async function notifyTargetFailed(
  tx: DbOrTx,
  input: {
    workspaceId: string
    postId: string
    target: { accountId: string; error: { message?: string } | null }
    now: Date
  },
): Promise<void> {
  const creator = await selectPostCreator(tx, input.postId)
  const account = await selectAccountName(tx, input.target.accountId)
  const label = accountLabel(account, input.target.accountId)
  await notify(tx, {
    workspaceId: input.workspaceId,
    kind: 'target_failed',
    recipients:
      creator?.kind === 'user' && creator.id
        ? { userIds: [creator.id] }
        : { roles: MANAGERS, groupScopeOfPostId: input.postId },
    title: `A post failed to publish on the ${label}`,
    body: input.target.error?.message ?? 'The network did not take the post.',
    link: `/app/w/${input.workspaceId}/posts/${input.postId}`,
    subject: { type: 'post', id: input.postId },
    now: input.now,
  })
}

/** An account became EXPIRED or DISCONNECTED: the owners and admins, who can reconnect it. */
export async function notifyAccountNeedsReconnect(
  tx: DbOrTx,
  input: { workspaceId: string; accountId: string; reason: string; now: Date },
): Promise<void> {
  const label = accountLabel(await selectAccountName(tx, input.accountId), input.accountId)
  await notify(tx, {
    workspaceId: input.workspaceId,
    kind: 'account_needs_reconnect',
    recipients: { roles: MANAGERS },
    title: `The ${label} needs reconnecting`,
    body: `${input.reason} Until it is reconnected, nothing is published to it.`,
    link: `/app/w/${input.workspaceId}/accounts`,
    subject: { type: 'account', id: input.accountId },
    now: input.now,
  })
}

/**
 * The schedule-time warnings `token_expires` of a post (services/posts/token-warnings.ts) told to the
 * owners and admins, once per account and post (the dedupe key), however often the post is edited.
 */
export async function notifyExpiringTokens(
  tx: DbOrTx,
  input: { workspaceId: string; postId: string; warnings: Array<{ code: string; accountId?: string; message: string }>; now: Date },
): Promise<void> {
  for (const warning of input.warnings) {
    if (warning.code !== 'token_expires' || !warning.accountId) continue
    await notify(tx, {
      workspaceId: input.workspaceId,
      kind: 'token_expires_before_post',
      recipients: { roles: MANAGERS },
      title: "An account's access ends before a scheduled post",
      body: warning.message,
      link: `/app/w/${input.workspaceId}/posts/${input.postId}`,
      subject: { type: 'post', id: input.postId },
      dedupeKey: `token_expires:${warning.accountId}:${input.postId}`,
      now: input.now,
    })
  }
}
