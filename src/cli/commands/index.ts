import type { CommandSpec } from '../command'
import { accountAdd, accountConnect, accountDisconnect, accountList } from './account'
import { analyticsCollect, dbMigrate } from './operations'
import { tokenCreate, tokenList, tokenRevoke } from './token'
import { workspaceCreate, workspaceList } from './workspace'

/** Every command, by its two words, in the order the help lists them. */
export const COMMANDS: Record<string, CommandSpec> = {
  'workspace create': workspaceCreate,
  'workspace list': workspaceList,
  'token create': tokenCreate,
  'token list': tokenList,
  'token revoke': tokenRevoke,
  'account add': accountAdd,
  'account connect': accountConnect,
  'account list': accountList,
  'account disconnect': accountDisconnect,
  'analytics collect': analyticsCollect,
  'db migrate': dbMigrate,
}
