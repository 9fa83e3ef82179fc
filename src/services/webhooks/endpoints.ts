/**
 * Webhook endpoints of a workspace (docs/webhooks.md): created with a signing secret shown once,
 * listed, changed, deleted and rotated. The URL must be one we may call (networks/outbound.ts);
 * the plan caps how many a workspace has. An id of another workspace is 404.
 */
import {
  countWorkspaceEndpoints,
  deleteWorkspaceEndpoint,
  findWorkspaceEndpoint,
  insertEndpointRow,
  listWorkspaceEndpoints,
  updateWorkspaceEndpoint,
  type WebhookEndpointRow,
} from '../../db/queries/webhook-endpoints'
import { failPendingDeliveriesOf } from '../../db/queries/webhook-outbox'
import type { Deps } from '../../deps'
import { AppError, notFound } from '../../domain/errors'
import type { WebhookEventType } from '../../domain/webhooks/events'
import { newId } from '../../lib/ids'
import { checkOutboundUrl } from '../../networks/outbound'
import { lockWorkspace } from '../workspace/lock'
import { newWebhookSecret, sealSecret } from './signing'
import { givenFields, recordAdminActivity } from '../activity/admin'
import { callerOfScope, type WorkspaceScope } from '../activity/scope'

/** How long the secret a rotation replaced keeps signing alongside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000

export interface WebhookEndpointRecord {
  id: string
  url: string
  description: string | null
  events: WebhookEventType[]
  enabled: boolean
  /** Why the service disabled it (every attempt failed for five days); null otherwise. */
  disabledReason: string | null
  /** Until when the secret a rotation replaced still signs; null when there is none. */
  previousSecretExpiresAt: string | null
  createdAt: string
  updatedAt: string
}

type EndpointDeps = Pick<Deps, 'db' | 'cipher' | 'clock' | 'networks'>

export function toEndpointRecord(row: WebhookEndpointRow, now?: Date): WebhookEndpointRecord {
  const overlap = row.previousSecretExpiresAt && (!now || row.previousSecretExpiresAt > now)
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    previousSecretExpiresAt: overlap ? row.previousSecretExpiresAt!.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** 400 naming `url` when we may not call it: https and a public address, unless ALLOW_PRIVATE_URLS. */
async function assertCallable(deps: Pick<Deps, 'networks'>, url: string): Promise<void> {
  const problem = deps.networks.checkUrl
    ? await deps.networks.checkUrl(url)
    : await checkOutboundUrl(url, { allowPrivate: deps.networks.allowPrivateUrls === true })
  if (problem === null) return
  throw new AppError('invalid_request', `url ${problem}.`, { details: [{ path: 'url', message: `url ${problem}` }] })
}

export interface NewEndpointInput {
  url: string
  events: WebhookEventType[]
  description?: string | null | undefined
}

export async function createEndpoint(
  deps: EndpointDeps,
  scope: WorkspaceScope,
  input: NewEndpointInput,
): Promise<WebhookEndpointRecord & { secret: string }> {
  const caller = callerOfScope(scope)
  const { workspaceId } = caller
  await assertCallable(deps, input.url)
  const id = newId('webhookEndpoint')
  const secret = newWebhookSecret()
  const sealed = await sealSecret(deps.cipher, secret, id)
  const now = deps.clock.now()
  const row = await deps.db.transaction(async (tx) => {
    const ws = await lockWorkspace(tx, workspaceId)
    const used = await countWorkspaceEndpoints(tx, workspaceId)
    if (ws.webhookEndpoints >= 0 && used >= ws.webhookEndpoints) {
      throw new AppError(
        'plan_limit_reached',
        `Your plan allows ${ws.webhookEndpoints} webhook endpoints; delete one or upgrade the plan.`,
        { details: [{ path: 'webhookEndpoints', limit: ws.webhookEndpoints, actual: used + 1 }] },
      )
    }
    const inserted = await insertEndpointRow(tx, {
      id,
      workspaceId,
      url: input.url,
      description: input.description ?? null,
      events: [...new Set(input.events)],
      secret: sealed,
      createdAt: now,
      updatedAt: now,
    })
    await recordAdminActivity(tx, caller, {
      action: 'webhook.created',
      subject: { type: 'webhook_endpoint', id },
      words: `added the webhook endpoint ${input.url} (${id})`,
      details: { url: input.url, events: inserted.events },
      now,
    })
    return inserted
  })
  return { ...toEndpointRecord(row, now), secret }
}

export async function listEndpoints(deps: Pick<Deps, 'db' | 'clock'>, workspaceId: string) {
  const now = deps.clock.now()
  return (await listWorkspaceEndpoints(deps.db, workspaceId)).map((r) => toEndpointRecord(r, now))
}

export async function getEndpointRow(deps: Pick<Deps, 'db'>, workspaceId: string, id: string) {
  const row = await findWorkspaceEndpoint(deps.db, workspaceId, id)
  if (!row) throw notFound('Webhook endpoint')
  return row
}

export async function getEndpoint(deps: Pick<Deps, 'db' | 'clock'>, workspaceId: string, id: string) {
  return toEndpointRecord(await getEndpointRow(deps, workspaceId, id), deps.clock.now())
}

export interface EndpointChange {
  url?: string | undefined
  events?: WebhookEventType[] | undefined
  description?: string | null | undefined
  enabled?: boolean | undefined
}

/** Changes what is given; enabling again clears the failure record, so it gets five more days. */
export async function updateEndpoint(deps: EndpointDeps, scope: WorkspaceScope, id: string, change: EndpointChange) {
  const caller = callerOfScope(scope)
  const { workspaceId } = caller
  if (change.url !== undefined) await assertCallable(deps, change.url)
  const now = deps.clock.now()
  const row = await deps.db.transaction(async (tx) => {
    const current = await findWorkspaceEndpoint(tx, workspaceId, id)
    if (!current) throw notFound('Webhook endpoint')
    const updated = await updateWorkspaceEndpoint(tx, workspaceId, id, {
      ...(change.url !== undefined ? { url: change.url } : {}),
      ...(change.events !== undefined ? { events: [...new Set(change.events)] } : {}),
      ...(change.description !== undefined ? { description: change.description } : {}),
      ...(change.enabled === true && !current.enabled
        ? { enabled: true, disabledReason: null, failingSince: null }
        : {}),
      ...(change.enabled === false ? { enabled: false } : {}),
      updatedAt: now,
    })
    // A disabled endpoint is sent nothing more: what waited for it ends FAILED (a replay sends it again).
    if (change.enabled === false) await failPendingDeliveriesOf(tx, id, now)
    const fields = givenFields(change)
    await recordAdminActivity(tx, caller, {
      action: change.enabled === false && current.enabled ? 'webhook.disabled' : 'webhook.updated',
      subject: { type: 'webhook_endpoint', id },
      words:
        change.enabled === false && current.enabled
          ? `turned off the webhook endpoint ${updated!.url} (${id})`
          : `changed the ${fields || 'nothing'} of the webhook endpoint ${updated!.url} (${id})`,
      details: {
        changed: Object.keys(change).filter((k) => change[k as keyof EndpointChange] !== undefined),
        url: updated!.url,
      },
      now,
    })
    return updated!
  })
  return toEndpointRecord(row, now)
}

export async function deleteEndpoint(deps: Pick<Deps, 'db' | 'clock'>, scope: WorkspaceScope, id: string) {
  const caller = callerOfScope(scope)
  await deps.db.transaction(async (tx) => {
    const current = await findWorkspaceEndpoint(tx, caller.workspaceId, id)
    if (!current || !(await deleteWorkspaceEndpoint(tx, caller.workspaceId, id))) throw notFound('Webhook endpoint')
    await recordAdminActivity(tx, caller, {
      action: 'webhook.deleted',
      subject: { type: 'webhook_endpoint', id },
      words: `deleted the webhook endpoint ${current.url} (${id})`,
      details: { url: current.url },
      now: deps.clock.now(),
    })
  })
  return { id, deleted: true as const }
}

/** A new secret (answered once); the replaced one keeps signing alongside it for 24 hours. */
export async function rotateSecret(deps: EndpointDeps, scope: WorkspaceScope, id: string) {
  const caller = callerOfScope(scope)
  const { workspaceId } = caller
  const current = await getEndpointRow(deps, workspaceId, id)
  const secret = newWebhookSecret()
  const sealed = await sealSecret(deps.cipher, secret, id)
  const now = deps.clock.now()
  const row = await deps.db.transaction(async (tx) => {
    const updated = await updateWorkspaceEndpoint(tx, workspaceId, id, {
      secret: sealed,
      previousSecret: current.secret,
      previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
      updatedAt: now,
    })
    if (!updated) throw notFound('Webhook endpoint')
    await recordAdminActivity(tx, caller, {
      action: 'webhook.secret_rotated',
      subject: { type: 'webhook_endpoint', id },
      words: `rotated the signing secret of the webhook endpoint ${updated.url} (${id})`,
      now,
    })
    return updated
  })
  return { ...toEndpointRecord(row, now), secret }
}
