import type { Board } from '../adapter'
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
