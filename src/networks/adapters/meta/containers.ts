/**
 * What the photo network (Instagram Graph API) and the text-thread network (Threads API) share:
 * publishing goes through "containers" the network builds from our public media URLs. A container
 * is created, polled until FINISHED, then published; a carousel is child containers first, then a
 * parent naming them. The container's own status is the exactly-once guard: PUBLISHED means the
 * network already made the post, so it is looked up, never published again.
 */
import type { RefreshInput, RefreshResult } from '../../adapter'
import { NetworkFailure, asFailedResult, expiresAtFrom, joinUrl, request } from '../../http'
import { graphFailure } from './graph'

/** Container states, as both networks spell them. */
export type ContainerCode = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED'

/** How far back from our publish request a post found in the account's recent list may be dated. */
export const RECOVERY_MARGIN_MS = 5 * 60_000

export type Params = Record<string, string>

export interface GraphClientOptions {
  network: string
  fetch: typeof fetch
  baseUrl: string
  /** Path prefix such as `v23.0`. */
  version: string
  accessToken: string
  now: Date
}

/** Graph calls with the token as `access_token` (query for reads, form field for writes), failures classified. */
export interface GraphClient {
  get(path: string, params?: Params): Promise<any>
  post(path: string, params: Params): Promise<any>
  del(path: string): Promise<any>
  /** An unversioned GET (token refresh endpoints). */
  getRoot(path: string, params: Params): Promise<any>
}

export function graphClient(o: GraphClientOptions): GraphClient {
  const call = async (url: string, init: { method?: string; form?: Params } = {}) => {
    const answer = await request(o.fetch, o.network, url, init)
    if (answer.status >= 200 && answer.status < 300 && !answer.body?.error) return answer.body ?? {}
    throw graphFailure(answer, o.network, o.now)
  }
  const url = (path: string, params: Params, versioned = true) =>
    `${joinUrl(o.baseUrl, versioned ? `${o.version}/${path}` : path)}?${new URLSearchParams({ ...params, access_token: o.accessToken })}`
  return {
    get: (path, params = {}) => call(url(path, params)),
    post: (path, params) =>
      call(joinUrl(o.baseUrl, `${o.version}/${path}`), {
        method: 'POST',
        form: { ...params, access_token: o.accessToken },
      }),
    del: (path) => call(url(path, {}), { method: 'DELETE' }),
    getRoot: (path, params) => call(url(path, params, false)),
  }
}

/** What to build: carousel children (none for a single container) and the head container. */
export interface ContainerPlan {
  children: Params[]
  /** For a carousel, `children=<ids>` is added once every child is FINISHED. */
  head: Params
}

/** Stored in the target's progress after every step, so a retry resumes instead of rebuilding. */
export interface ContainerState {
  childIds: string[]
  id?: string
  /** Set just before the publish call: the lower bound when looking the post up after a lost answer. */
  publishRequestedAt?: string
}

export interface ContainerOps {
  network: string
  create(params: Params): Promise<string>
  status(id: string): Promise<{ code: ContainerCode | string; detail: string | null }>
  publish(containerId: string): Promise<string>
  /** The post a PUBLISHED container became, from the account's recent posts; null when not listed (yet). */
  findPublished(since: Date | null): Promise<string | null>
  save(state: ContainerState | undefined): Promise<void>
  now: Date
}

export type DriveResult =
  | { kind: 'published'; mediaId: string }
  | { kind: 'pending'; state: ContainerState }
  | { kind: 'absent' }

const refused = (network: string, detail: string | null) =>
  new NetworkFailure('rejected', `${network} could not process the media${detail ? `: ${detail}` : '.'}`)

/**
 * Moves a container publish one step as far as it can go without waiting. `confirm` (an
 * unconfirmed publish) never creates nor publishes: it only says whether the post exists.
 */
export async function driveContainers(
  planOf: () => ContainerPlan,
  initial: ContainerState | undefined,
  ops: ContainerOps,
  confirm: boolean,
): Promise<DriveResult> {
  let state = initial
  let built: ContainerPlan | undefined
  const plan = () => (built ??= planOf())
  for (let rebuilds = 0; rebuilds < 2; rebuilds++) {
    if (!state || (!state.id && confirm)) return confirm ? { kind: 'absent' } : await drive(plan, { childIds: [] }, ops)
    const result = await resume(plan, state, ops, confirm)
    if (result !== 'expired') return result
    await ops.save(undefined)
    state = undefined
    if (confirm) return { kind: 'absent' }
  }
  throw new NetworkFailure('transient', `${ops.network} let the media containers expire; they will be built again.`)
}

async function drive(plan: () => ContainerPlan, state: ContainerState, ops: ContainerOps): Promise<DriveResult> {
  const result = await resume(plan, state, ops, false)
  if (result === 'expired') throw new NetworkFailure('transient', `${ops.network} let a new media container expire.`)
  return result
}

async function resume(
  plan: () => ContainerPlan,
  start: ContainerState,
  ops: ContainerOps,
  confirm: boolean,
): Promise<DriveResult | 'expired'> {
  let state = start
  if (!state.id) {
    while (state.childIds.length < plan().children.length) {
      const id = await ops.create(plan().children[state.childIds.length]!)
      state = { ...state, childIds: [...state.childIds, id] }
      await ops.save(state)
    }
    for (const child of state.childIds) {
      const { code, detail } = await ops.status(child)
      if (code === 'EXPIRED') return 'expired'
      if (code === 'ERROR') throw refused(ops.network, detail)
      if (code !== 'FINISHED') return { kind: 'pending', state }
    }
    const head = state.childIds.length > 0 ? { ...plan().head, children: state.childIds.join(',') } : plan().head
    state = { ...state, id: await ops.create(head) }
    await ops.save(state)
  }
  const { code, detail } = await ops.status(state.id!)
  switch (code) {
    case 'EXPIRED':
      return 'expired'
    case 'ERROR':
      throw refused(ops.network, detail)
    case 'PUBLISHED': {
      const since = state.publishRequestedAt
        ? new Date(Date.parse(state.publishRequestedAt) - RECOVERY_MARGIN_MS)
        : null
      const mediaId = await ops.findPublished(since)
      if (!mediaId)
        throw new NetworkFailure(
          'transient',
          `${ops.network} published the post but does not list it yet; checking again.`,
        )
      return { kind: 'published', mediaId }
    }
    case 'FINISHED': {
      if (confirm) return { kind: 'absent' }
      state = { ...state, publishRequestedAt: ops.now.toISOString() }
      await ops.save(state)
      return { kind: 'published', mediaId: await ops.publish(state.id!) }
    }
    default:
      return confirm ? { kind: 'absent' } : { kind: 'pending', state }
  }
}

/** Graph timestamps look like `2026-11-21T08:00:00+0000`. */
export const graphTime = (value: unknown): number =>
  typeof value === 'string' ? Date.parse(value.replace(/([+-]\d\d)(\d\d)$/, '$1:$2')) : NaN

/** The newest listed item with this text, dated at or after `since`. */
export function findListed(
  items: Array<Record<string, unknown>>,
  textField: string,
  text: string | null,
  since: Date | null,
): string | null {
  const found = items.find(
    (m) =>
      (text === null || (m[textField] ?? '') === text) &&
      (since === null || !(graphTime(m.timestamp) < since.getTime())),
  )
  return found && typeof found.id === 'string' ? found.id : null
}

/**
 * Renews a long-lived token through `GET /refresh_access_token?grant_type=<grantType>` (the photo
 * network's direct login, the text-thread network).
 */
export async function refreshLongLivedToken(
  graph: GraphClient,
  network: string,
  grantType: string,
  input: RefreshInput,
): Promise<RefreshResult> {
  try {
    const body = await graph.getRoot('refresh_access_token', { grant_type: grantType })
    if (typeof body.access_token !== 'string')
      throw new NetworkFailure('transient', `${network} answered the token renewal without a token.`)
    const expiresIn = Number(body.expires_in)
    return {
      status: 'refreshed',
      credentials: {
        ...input.credentials,
        accessToken: body.access_token,
        ...(Number.isFinite(expiresIn) && expiresIn > 0 ? { expiresAt: expiresAtFrom(input.now, expiresIn) } : {}),
      },
    }
  } catch (e) {
    return asFailedResult(e)
  }
}
