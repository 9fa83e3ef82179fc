/**
 * The publish steps the two container networks (photo, text-thread) take alike around
 * `driveContainers`: the account's Graph client, `publish` and `checkStatus` as one step (an
 * unconfirmed check only confirms), the progress saved after every step, the container calls on
 * the account's edges, the head post's outcome, and its permalink read once. What differs (the
 * host, the edges, the status fields, the plans) is passed in.
 */
import type { NetworkAdapter, PendingInput, PublishInput, PublishProgress, PublishResult } from '../../adapter'
import { asFailedResult, credential } from '../../http'
import {
  graphClient,
  findListed,
  type ContainerCode,
  type ContainerOps,
  type ContainerState,
  type DriveResult,
  type GraphClient,
  type Params,
} from './containers'

/** A network's Graph host: its name in messages and the API version in every path. */
export interface GraphHost {
  network: string
  version: string
}

type AccountInput = { fetch: typeof fetch; baseUrl: string; credentials: Record<string, unknown>; now: Date }

/** The account's Graph client on the host, with its stored access token. */
export const accountGraph = (host: GraphHost, input: AccountInput): GraphClient =>
  graphClient({
    network: host.network,
    fetch: input.fetch,
    baseUrl: input.baseUrl,
    version: host.version,
    accessToken: credential(input.credentials, 'accessToken'),
    now: input.now,
  })

type Step = (input: PublishInput, confirm: boolean) => Promise<PublishResult>

/** `publish` and `checkStatus` over one step, confirming only on an unconfirmed check; a network's failure is a result. */
export function publishSteps(step: Step): Pick<NetworkAdapter, 'publish' | 'checkStatus'> {
  async function run(input: PublishInput | PendingInput, confirm: boolean): Promise<PublishResult> {
    try {
      return await step(input, confirm)
    } catch (e) {
      return asFailedResult(e)
    }
  }
  return {
    publish: (input) => run(input, false),
    checkStatus: (input) => run(input, input.unconfirmed),
  }
}

export type SaveStep = (step: Partial<PublishProgress>) => Promise<void>

/** A copy of the target's progress, and `save`, which merges a step into it and stores it at once. */
export function progressOf(input: PublishInput): { progress: PublishProgress; save: SaveStep } {
  const progress: PublishProgress = { ...input.progress }
  const save: SaveStep = async (step) => {
    Object.assign(progress, step)
    await input.saveProgress({ ...progress })
  }
  return { progress, save }
}

/** Where an account's containers live, as one network names its edges and fields. */
export interface ContainerEdges {
  graph: GraphClient
  host: GraphHost
  now: Date
  /** The account's id: containers are created on `<id>/<edge>` and published through `<id>/<edge>_publish`. */
  accountId: string
  edge: string
  /** The fields a container's status is read with, which one holds its code, and its error in words. */
  status: { fields: string; codeField: string; detail(body: any): string | null }
  /** Where a post whose publish answer was lost is looked for: the list's edge, its text field, the text (null: any). */
  recent: { edge: string; textField: string; text: string | null; limit: number }
  save(state: ContainerState | undefined): Promise<void>
}

/** The container calls `driveContainers` makes, on the account's edges. */
export function containerOps(e: ContainerEdges): ContainerOps {
  return {
    network: e.host.network,
    now: e.now,
    create: async (params: Params) => String((await e.graph.post(`${e.accountId}/${e.edge}`, params)).id),
    status: async (id: string) => {
      const body = await e.graph.get(id, { fields: e.status.fields })
      return {
        code: String(body[e.status.codeField] ?? 'IN_PROGRESS') as ContainerCode,
        detail: e.status.detail(body),
      }
    },
    publish: async (id: string) =>
      String((await e.graph.post(`${e.accountId}/${e.edge}_publish`, { creation_id: id })).id),
    findPublished: async (since: Date | null) => {
      const listed = await e.graph.get(`${e.accountId}/${e.recent.edge}`, {
        fields: `id,${e.recent.textField},timestamp`,
        limit: String(e.recent.limit),
      })
      return findListed(Array.isArray(listed.data) ? listed.data : [], e.recent.textField, e.recent.text, since)
    },
    save: e.save,
  }
}

/**
 * What the head post's drive means for the publish: the answer while the post is absent or its
 * containers pending (checked again after `pollSec`); null once the post exists, its id saved.
 */
export async function headOutcome(result: DriveResult, save: SaveStep, pollSec: number): Promise<PublishResult | null> {
  if (result.kind === 'absent') return { status: 'absent' }
  if (result.kind === 'pending') return { status: 'pending', state: result.state, checkAfterSec: pollSec }
  await save({ headId: result.mediaId, containers: undefined })
  return null
}

/** The head post's permalink, read once and kept in progress (none when the network gives none). */
export async function savePermalink(graph: GraphClient, headId: string, progress: PublishProgress, save: SaveStep) {
  if (progress.headPermalink) return
  const body = await graph.get(headId, { fields: 'permalink' })
  if (typeof body.permalink === 'string') await save({ headPermalink: body.permalink })
}
