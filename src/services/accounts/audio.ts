/**
 * The audio tracks a platform's reels can take (`GET /v1/platforms/{platform}/audio`, MCP
 * `list_audio`). A catalogue is the network's, read with one account's token, so it is listed only
 * for an account of this workspace (another workspace's is 404) connected the way the rules
 * registry names (`options.audio.catalogue`); every other case is an empty list and the reason.
 */
import type { Deps } from '../../deps'
import { AppError } from '../../domain/errors'
import {
  type AudioCatalogue,
  type AudioKind,
  audioCatalogue,
  catalogueConnections,
  readCatalogueReason,
} from '../../domain/rules/audio-catalogues'
import type { PlatformId } from '../../domain/vocabulary'
import { getAccountRow } from './accounts'
import { readFromNetwork } from './network-reads'

export interface AudioQuery {
  platform: PlatformId
  accountId?: string | undefined
  kind?: AudioKind | undefined
  query?: string | undefined
  cursor?: string | undefined
}

export async function listAudio(
  deps: Pick<Deps, 'db' | 'cipher' | 'networks' | 'clock'>,
  workspaceId: string,
  ask: AudioQuery,
): Promise<AudioCatalogue> {
  const { platform } = ask
  if (!ask.accountId) return audioCatalogue(platform)
  const row = await getAccountRow(deps.db, workspaceId, ask.accountId)
  if (row.platform !== platform)
    throw new AppError('invalid_option', `Account ${row.id} is a ${row.platform} account, not a ${platform} one.`, {
      details: [{ path: 'accountId', platform: row.platform }],
    })
  const adapter = deps.networks.adapterFor(platform, row.connection)
  if (!catalogueConnections(platform).includes(row.connection) || !adapter?.listAudio)
    return audioCatalogue(platform, row)
  const read = { what: 'the audio', path: 'accountId', platform }
  const kind = ask.kind ?? 'music'
  const query = ask.query?.trim() || null
  const page = await readFromNetwork(deps, row, {
    adapter,
    read,
    call: (input) => adapter.listAudio!({ ...input, kind, query, cursor: ask.cursor || null }),
  })
  return { ...audioCatalogue(platform), ...page, reason: readCatalogueReason(kind, query) }
}
