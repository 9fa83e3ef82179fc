import type { CommandSpec } from '../command'
import { accountAdd, accountConnect, accountDisconnect, accountList } from './account'
import { accountsConnect, accountsList } from './accounts'
import { eventsTail, listen } from './events'
import { mediaUpload } from './media'
import { analyticsCollect, dbMigrate } from './operations'
import { postsCreate, postsDelete, postsGet, postsList, postsPublish } from './posts'
import { login, logout, whoami } from './session'
import { tokenCreate, tokenList, tokenRevoke } from './token'
import { webhooksCreate, webhooksList } from './webhooks'
import { workspaceCreate, workspaceList } from './workspace'

/**
 * Every command, by its words (one or two), in the order the help lists them: first the server's
 * own administration (opens its database), then the client of a remote server (HTTP only).
 */
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
  login,
  logout,
  whoami,
  'posts create': postsCreate,
  'posts list': postsList,
  'posts get': postsGet,
  'posts publish': postsPublish,
  'posts delete': postsDelete,
  'media upload': mediaUpload,
  'accounts list': accountsList,
  'accounts connect': accountsConnect,
  'webhooks list': webhooksList,
  'webhooks create': webhooksCreate,
  'events tail': eventsTail,
  listen,
}
