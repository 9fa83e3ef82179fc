/**
 * The account group a new connect link files its account into (`groupId` of `POST
 * /v1/accounts/connect`, `connect_account`, the dashboard's connect form). A caller limited to
 * groups must name one of them, or is given its only one; limited to several and naming none is
 * 422 `invalid_option` naming them. A group of another workspace, or outside a limited caller's
 * groups, is 404 as an unknown group filter is. An unlimited caller may name none: no group.
 */
import { selectExistingGroupIds, selectGroups } from '../../db/queries/groups'
import type { DbOrTx } from '../../db/types'
import { AppError, notFound } from '../../domain/errors'
import type { Viewer } from '../access/visibility'

/** The group the link's account will join (null: none), or why the caller cannot connect into it. */
export async function groupOfNewAccount(
  db: DbOrTx,
  viewer: Viewer,
  groupId: string | undefined,
): Promise<string | null> {
  const limitedTo = viewer.access.groupIds
  if (groupId !== undefined) {
    if (limitedTo !== null && !limitedTo.includes(groupId)) throw notFound('Group')
    const known = await selectExistingGroupIds(db, viewer.workspaceId, [groupId])
    if (known.length === 0) throw notFound('Group')
    return groupId
  }
  if (limitedTo === null) return null
  if (limitedTo.length === 1) return limitedTo[0]!
  throw await groupRequired(db, viewer, limitedTo)
}

/** The 422 of a caller limited to several groups who named none: which ones it may choose. */
async function groupRequired(db: DbOrTx, viewer: Viewer, limitedTo: readonly string[]): Promise<AppError> {
  const groups = await selectGroups(db, viewer.workspaceId, limitedTo)
  const named = groups.map((g) => `${g.name} (${g.id})`).join(', ')
  const message = `You can reach several account groups: name the one the new account joins in groupId, one of ${named}.`
  return new AppError('invalid_option', message, {
    details: [{ path: 'groupId', message: 'required: one of your groups', groupIds: groups.map((g) => g.id) }],
  })
}
