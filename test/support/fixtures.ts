import { mediaAssets } from '../../src/db/schema'
import { newId } from '../../src/lib/ids'
import type { Connection, PlatformId } from '../../src/domain/vocabulary'
import { addSandboxAccount, insertAccount } from '../../src/services/accounts/accounts'
import type { TestApp } from './test-app'

/** A SANDBOX account of the test workspace. */
export async function account(t: TestApp, platform: PlatformId, username = platform.toLowerCase()) {
  return addSandboxAccount(t.deps.db, t.deps.cipher, { workspaceId: t.workspaceId, platform, username })
}

/** An account with a given connection (no network call: for rules that depend on the connection). */
export async function connectedAccount(
  t: TestApp,
  platform: PlatformId,
  connection: 'SOCIALGRAPH_LOGIN' | 'DIRECT_LOGIN',
) {
  return insertAccount(t.deps.db, t.deps.cipher, {
    workspaceId: t.workspaceId,
    platform,
    username: `${platform.toLowerCase()}_${connection.toLowerCase()}`,
    connection,
    credentials: {},
  })
}

/** A registered media asset row, as registration would have stored it. */
export async function media(
  t: TestApp,
  asset: {
    type?: 'IMAGE' | 'VIDEO'
    mimeType?: string
    width?: number
    height?: number
    sizeBytes?: number
    durationSec?: number | null
  } = {},
) {
  const id = newId('media')
  const type = asset.type ?? 'IMAGE'
  await t.deps.db.insert(mediaAssets).values({
    id,
    workspaceId: t.workspaceId,
    type,
    storageKey: `${t.workspaceId}/2026/11/${id}.bin`,
    url: `https://media.example.test/${id}`,
    mimeType: asset.mimeType ?? (type === 'IMAGE' ? 'image/jpeg' : 'video/mp4'),
    width: asset.width ?? 1080,
    height: asset.height ?? 1350,
    sizeBytes: asset.sizeBytes ?? 500_000,
    durationSec: asset.durationSec ?? (type === 'VIDEO' ? 30 : null),
  })
  return id
}

/** A fixed clock for tests that depend on "now". */
export const fixedClock = (iso: string) => {
  let now = new Date(iso)
  return { now: () => now, set: (next: string) => (now = new Date(next)) }
}

/**
 * An account connected to a real network's adapter with these credentials, stored as `account add`
 * stores them but without the verifying call (tests of publishing start from a connected account).
 */
export async function realAccount(
  t: TestApp,
  platform: PlatformId,
  connection: Exclude<Connection, 'SANDBOX'>,
  credentials: Record<string, unknown>,
  externalId: string | null = null,
) {
  return insertAccount(t.deps.db, t.deps.cipher, {
    workspaceId: t.workspaceId,
    platform,
    username: `${platform.toLowerCase()}_user`,
    connection,
    credentials,
    externalId,
  })
}

/**
 * A media asset whose bytes really are in the test's object store, at the public URL the adapters
 * download from (push networks) or hand to the network (pull networks, whose fakes fetch it).
 */
export async function storedMedia(
  t: TestApp,
  asset: {
    bytes: Uint8Array
    mimeType: string
    type?: 'IMAGE' | 'VIDEO'
    width?: number
    height?: number
    durationSec?: number | null
    altText?: string | null
  },
) {
  const id = newId('media')
  const type = asset.type ?? (asset.mimeType.startsWith('video/') ? 'VIDEO' : 'IMAGE')
  const key = `${t.workspaceId}/2026/11/${id}`
  await t.deps.storage.put(key, asset.bytes, asset.mimeType)
  await t.deps.db.insert(mediaAssets).values({
    id,
    workspaceId: t.workspaceId,
    type,
    storageKey: key,
    url: t.deps.storage.publicUrl(key),
    mimeType: asset.mimeType,
    width: asset.width ?? 1080,
    height: asset.height ?? 1350,
    sizeBytes: asset.bytes.byteLength,
    durationSec: asset.durationSec ?? (type === 'VIDEO' ? 30 : null),
    altText: asset.altText ?? null,
  })
  return id
}
