/**
 * Labels (a campaign, a theme) and the labels of a post. `labelIds` on a post's create or edit
 * replaces its labels in the transaction of the post's write; an id that is not a label of the
 * workspace is 422 `label_not_found`. Deleting a label takes it off its posts, never the posts.
 * Creating, changing and deleting a label is in the activity log (`label.created`, ...).
 */
import {
  deleteLabelRow,
  insertLabel,
  labelNameTaken,
  type LabelRow,
  replacePostLabels,
  selectExistingLabelIds,
  selectLabel,
  selectLabels,
  selectLabelsOfPosts,
  updateLabelRow,
} from '../../db/queries/labels'
import type { DbOrTx } from '../../db/types'
import type { Deps } from '../../deps'
import { AppError, type ErrorDetail, notFound } from '../../domain/errors'
import { newId } from '../../lib/ids'
import { recordLabelActivity } from '../activity/catalog'
import type { Caller } from '../caller'

type LabelDeps = Pick<Deps, 'db' | 'clock'>

export const DEFAULT_LABEL_COLOR = '#64748b'

export interface LabelRecord {
  id: string
  name: string
  color: string
  createdAt: string
}

/** A label as a post carries it. */
export interface PostLabel {
  id: string
  name: string
  color: string
}

const toLabelRecord = (l: LabelRow): LabelRecord => ({ ...l, createdAt: l.createdAt.toISOString() })

const nameTaken = (name: string) =>
  new AppError('name_taken', `A label named "${name}" already exists in this workspace; choose another name.`, {
    details: [{ path: 'name', message: 'already used by another label' }],
  })

export async function listLabels(db: DbOrTx, workspaceId: string): Promise<LabelRecord[]> {
  return (await selectLabels(db, workspaceId)).map(toLabelRecord)
}

export async function getLabel(db: DbOrTx, workspaceId: string, labelId: string): Promise<LabelRecord> {
  const row = await selectLabel(db, workspaceId, labelId)
  if (!row) throw notFound('Label')
  return toLabelRecord(row)
}

export async function createLabel(
  deps: LabelDeps,
  caller: Caller,
  input: { name: string; color?: string | undefined },
): Promise<LabelRecord> {
  const id = newId('label')
  const now = deps.clock.now()
  const color = input.color ?? DEFAULT_LABEL_COLOR
  await deps.db.transaction(async (tx) => {
    const { workspaceId } = caller
    if (!(await insertLabel(tx, { id, workspaceId, name: input.name, color, now }))) throw nameTaken(input.name)
    await recordLabelActivity(tx, caller, { verb: 'created', label: { id, name: input.name }, now })
  })
  return { id, name: input.name, color, createdAt: now.toISOString() }
}

export async function updateLabel(
  deps: LabelDeps,
  caller: Caller,
  labelId: string,
  patch: { name?: string | undefined; color?: string | undefined },
): Promise<LabelRecord> {
  const { workspaceId } = caller
  await deps.db.transaction(async (tx) => {
    const before = await selectLabel(tx, workspaceId, labelId)
    if (!before) throw notFound('Label')
    if (patch.name !== undefined && (await labelNameTaken(tx, workspaceId, patch.name, labelId))) {
      throw nameTaken(patch.name)
    }
    await updateLabelRow(tx, workspaceId, labelId, patch)
    const label = { id: labelId, name: patch.name ?? before.name }
    await recordLabelActivity(tx, caller, { verb: 'updated', label, fields: patch, now: deps.clock.now() })
  })
  return getLabel(deps.db, workspaceId, labelId)
}

export async function deleteLabel(
  deps: LabelDeps,
  caller: Caller,
  labelId: string,
): Promise<{ id: string; deleted: true }> {
  await deps.db.transaction(async (tx) => {
    const before = await selectLabel(tx, caller.workspaceId, labelId)
    if (!before || !(await deleteLabelRow(tx, caller.workspaceId, labelId))) throw notFound('Label')
    const label = { id: labelId, name: before.name }
    await recordLabelActivity(tx, caller, { verb: 'deleted', label, now: deps.clock.now() })
  })
  return { id: labelId, deleted: true }
}

/** Every id is a label of the workspace; else 422 `label_not_found` naming each. */
export async function assertLabels(db: DbOrTx, workspaceId: string, labelIds: string[]): Promise<void> {
  if (labelIds.length === 0) return
  const found = new Set(await selectExistingLabelIds(db, workspaceId, [...new Set(labelIds)]))
  const missing: ErrorDetail[] = []
  labelIds.forEach((id, i) => {
    if (!found.has(id)) missing.push({ path: `labelIds.${i}`, message: `no label ${id} in this workspace` })
  })
  if (missing.length === 0) return
  throw new AppError(
    'label_not_found',
    missing.length === 1
      ? `Label ${labelIds[Number(missing[0]!.path.split('.')[1])]} is not in this workspace.`
      : `${missing.length} labels are not in this workspace; see details.`,
    { details: missing },
  )
}

/** Within the post's write: checks `labelIds` and makes them the post's labels (undefined: unchanged). */
export async function setPostLabels(
  tx: DbOrTx,
  workspaceId: string,
  postId: string,
  labelIds: string[] | undefined,
): Promise<void> {
  if (labelIds === undefined) return
  await assertLabels(tx, workspaceId, labelIds)
  await replacePostLabels(tx, workspaceId, postId, [...new Set(labelIds)])
}

/** Each post's labels, by name. */
export async function labelsOfPosts(db: DbOrTx, postIds: string[]): Promise<Map<string, PostLabel[]>> {
  const out = new Map<string, PostLabel[]>()
  for (const r of await selectLabelsOfPosts(db, postIds)) {
    out.set(r.postId, [...(out.get(r.postId) ?? []), { id: r.id, name: r.name, color: r.color }])
  }
  return out
}

/** The labels `labelIds` name, in their order without repeats; 422 `label_not_found` naming each unknown one. */
export async function loadPostLabels(db: DbOrTx, workspaceId: string, labelIds: string[]): Promise<PostLabel[]> {
  if (labelIds.length === 0) return []
  await assertLabels(db, workspaceId, labelIds)
  const all = new Map((await selectLabels(db, workspaceId)).map((l) => [l.id, l]))
  return [...new Set(labelIds)]
    .map((id) => all.get(id)!)
    .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id.localeCompare(b.id))
    .map(({ id, name, color }) => ({ id, name, color }))
}
