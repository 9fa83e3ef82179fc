/**
 * Who a Google sign-in can post as on the local business network: one identity per business
 * location the signed-in user manages, across every Business Profile account they have access to
 * (their personal account, organisations, location groups), each page followed. The account the
 * owner connects is one location: its credentials hold the tokens, the account's resource name
 * and the location's v4 name (`accounts/{a}/locations/{l}`), which the local posts API addresses.
 * Followed: https://developers.google.com/my-business/reference/accountmanagement/rest/v1/accounts/list
 * (20 a page at most) and
 * https://developers.google.com/my-business/reference/businessinformation/rest/v1/accounts.locations/list
 * (100 a page at most; `readMask` required).
 */
import type { VerifiedAccount, VerifyInput } from '../../adapter'
import { NetworkFailure, credential } from '../../http'
import { NETWORK, localClient, locationNameOf, v1, type LocalCall, type LocalOrigins } from './api'

export const ACCOUNTS_PAGE_SIZE = 20
export const LOCATIONS_PAGE_SIZE = 100
/** Pages followed at most: 200 accounts, and 2,000 locations in each. */
export const MAX_ACCOUNT_PAGES = 10
export const MAX_LOCATION_PAGES = 20
/** The location fields read: its id, its name as people see it, its address. */
export const LOCATION_READ_MASK = 'name,title,storefrontAddress'

interface Location {
  name?: unknown
  title?: unknown
  storefrontAddress?: { locality?: unknown; addressLines?: unknown }
}

/** Every item of a paged list, following `nextPageToken` up to `maxPages`. */
async function paged(
  call: LocalCall,
  url: string,
  field: string,
  query: Record<string, string>,
  maxPages: number,
): Promise<any[]> {
  const items: any[] = []
  let pageToken: string | null = null
  for (let page = 0; page < maxPages; page++) {
    const body = await call('GET', url, { query: { ...query, ...(pageToken ? { pageToken } : {}) } })
    if (Array.isArray(body[field])) items.push(...body[field])
    pageToken = typeof body.nextPageToken === 'string' && body.nextPageToken ? body.nextPageToken : null
    if (!pageToken) break
  }
  return items
}

/** `locations/{id}` -> `{id}`, or null for a name of another shape. */
const locationId = (name: unknown): string | null => {
  const m = typeof name === 'string' ? /^locations\/([\w-]+)$/.exec(name) : null
  return m ? m[1]! : null
}

/** "Corner Bakery (Springfield)": the title, and the town when the address gives one. */
function displayName(location: Location, fallback: string): string {
  const title = typeof location.title === 'string' && location.title.trim() ? location.title.trim() : fallback
  const town = location.storefrontAddress?.locality
  return typeof town === 'string' && town.trim() ? `${title} (${town.trim()})` : title
}

/** One identity per location the sign-in manages, the first account listing a location keeping it. */
export async function listLocationIdentities(input: VerifyInput, origins: LocalOrigins): Promise<VerifiedAccount[]> {
  const call = localClient(input)
  const accounts = await paged(
    call,
    v1(origins.accounts, 'accounts'),
    'accounts',
    { pageSize: String(ACCOUNTS_PAGE_SIZE) },
    MAX_ACCOUNT_PAGES,
  )
  const found = new Map<string, VerifiedAccount>()
  for (const account of accounts) {
    const accountName = typeof account?.name === 'string' ? account.name : ''
    if (!/^accounts\/[\w-]+$/.test(accountName)) continue
    const locations: Location[] = await paged(
      call,
      v1(origins.locations, `${accountName}/locations`),
      'locations',
      { readMask: LOCATION_READ_MASK, pageSize: String(LOCATIONS_PAGE_SIZE) },
      MAX_LOCATION_PAGES,
    )
    for (const location of locations) {
      const id = locationId(location.name)
      if (!id || found.has(`locations/${id}`)) continue
      found.set(`locations/${id}`, {
        username: displayName(location, `locations/${id}`),
        externalId: `locations/${id}`,
        credentials: { ...input.credentials, accountName, locationName: `${accountName}/locations/${id}` },
      })
    }
  }
  return [...found.values()]
}

/** Credentials naming a location: the token must read it (`locations.get`); its title is the account's name. */
export async function verifyLocation(input: VerifyInput, origins: LocalOrigins): Promise<VerifiedAccount> {
  const locationName = locationNameOf(input.credentials)
  const accountName = credential(input.credentials, 'accountName')
  if (!locationName.startsWith(`${accountName}/`))
    throw new NetworkFailure('rejected', `${NETWORK}: locationName ${locationName} is not under ${accountName}.`)
  const id = locationName.slice(locationName.lastIndexOf('/') + 1)
  const location: Location = await localClient(input)('GET', v1(origins.locations, `locations/${id}`), {
    query: { readMask: LOCATION_READ_MASK },
  })
  if (locationId(location.name) !== id)
    throw new NetworkFailure('rejected', `${NETWORK}: the network answered for another location than ${locationName}.`)
  return {
    username: displayName(location, `locations/${id}`),
    externalId: `locations/${id}`,
    credentials: { ...input.credentials },
  }
}
