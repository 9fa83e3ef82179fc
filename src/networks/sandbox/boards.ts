import type { Board, Destination } from '../adapter'
import type { PlatformId } from '../../domain/vocabulary'
import { rulesFor } from '../../domain/rules/index'
import { hash32 } from './hash'

const BOARDS = [
  { name: 'Inspiration', privacy: 'PUBLIC' },
  { name: 'Recipes', privacy: 'PUBLIC' },
  { name: 'Travel', privacy: 'SECRET' },
] as const

/** The boards every sandbox pinboard account has: the same three, with ids derived from the account id. */
export function sandboxBoards(accountId: string): Board[] {
  return BOARDS.map((board, i) => ({
    id: `${hash32(`${accountId}:board:${i}`)}${i}`,
    name: board.name,
    privacy: board.privacy,
  }))
}

const PLACES = ['General', 'Announcements', 'Testing'] as const

/**
 * The destinations every sandbox account of a network with `options.destination` has: the
 * pinboard network's are its boards; any other network's are three named after the registry's
 * noun, with ids derived from the account id. Empty for a network without destinations.
 */
export function sandboxDestinations(platform: PlatformId, accountId: string): Destination[] {
  const options = rulesFor(platform).options
  if (options.destination === null) return []
  if (options.pinboardNetBoards !== null) {
    return sandboxBoards(accountId).map((b) => ({ id: b.id, name: b.name, description: null }))
  }
  const { noun } = options.destination
  return PLACES.map((place, i) => ({
    id: `${hash32(`${accountId}:destination:${i}`)}${i}`,
    name: `${place} ${noun}`,
    description: `A simulated ${noun} of this sandbox account.`,
  }))
}
