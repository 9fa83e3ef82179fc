import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi'
import { idempotent } from '../http/idempotency'
import { documentOperation } from '../http/openapi'
import { scopeGuard } from '../http/scope-guard'
import type { RegisteredRoute, RouteModule } from '../http/route-meta'
import type { AppEnv } from '../http/context'
import * as listBoards from './accounts/boards'
import * as listDestinations from './accounts/destinations'
import * as getAnalytics from './analytics/get'
import * as getPostAnalytics from './analytics/post'
import * as refreshAnalytics from './analytics/refresh'
import * as getBestTimes from './best-times/get'
import * as listAccounts from './accounts/list'
import * as getAccount from './accounts/get'
import * as disconnectAccount from './accounts/disconnect'
import * as createConnectLink from './accounts/connect'
import * as createReconnectLink from './accounts/reconnect'
import * as listInboxComments from './inbox/list'
import * as countInboxUnread from './inbox/unread-count'
import * as listInboxMentions from './inbox/mentions'
import * as markInboxCommentsRead from './inbox/read-many'
import * as getInboxComment from './inbox/get'
import * as replyToInboxComment from './inbox/reply'
import * as hideInboxComment from './inbox/hide'
import * as unhideInboxComment from './inbox/unhide'
import * as likeInboxComment from './inbox/like'
import * as markInboxCommentRead from './inbox/read'
import * as markInboxCommentUnread from './inbox/unread'
import * as deleteInboxComment from './inbox/delete'
import * as getMe from './me/get'
import * as getMedia from './media/get'
import * as listMedia from './media/list'
import * as registerMedia from './media/register'
import * as createUpload from './media/upload'
import * as updateMedia from './media/update'
import * as createVariants from './media/variants'
import * as bulkPosts from './posts/bulk'
import * as createPost from './posts/create'
import * as deletePost from './posts/delete'
import * as getPost from './posts/get'
import * as listPosts from './posts/list'
import * as publishPost from './posts/publish'
import * as retryPost from './posts/retry'
import * as schedulePost from './posts/schedule'
import * as updatePost from './posts/update'
import * as submitPost from './posts/submit'
import * as approvePost from './posts/approve'
import * as requestPostChanges from './posts/request-changes'
import * as getWorkspace from './workspace/get'
import * as updateWorkspace from './workspace/update'
import * as validatePost from './posts/validate'
import * as listPlatforms from './platforms/list'
import * as listPlatformAudio from './platforms/audio'
import * as getQueueSlots from './queue-slots/get'
import * as replaceQueueSlots from './queue-slots/replace'
import * as listEvents from './events/list'
import * as replayEvent from './events/replay'
import * as streamEvents from './events/stream'
import * as createWebhook from './webhooks/create'
import * as deleteWebhook from './webhooks/delete'
import * as listWebhookDeliveries from './webhooks/deliveries'
import * as getWebhook from './webhooks/get'
import * as listWebhooks from './webhooks/list'
import * as rotateWebhookSecret from './webhooks/rotate-secret'
import * as testWebhook from './webhooks/test'
import * as updateWebhook from './webhooks/update'
import * as listGroups from './groups/list'
import * as getGroup from './groups/get'
import * as createGroup from './groups/create'
import * as updateGroup from './groups/update'
import * as deleteGroup from './groups/delete'
import * as listLabels from './labels/list'
import * as createLabel from './labels/create'
import * as updateLabel from './labels/update'
import * as deleteLabel from './labels/delete'

/**
 * Registers one operation with the protection its file declares: an operation that takes an
 * `Idempotency-Key` gets the idempotency middleware on its own method and path only. Its
 * description gets what every operation has (http/openapi.ts `documentOperation`).
 */
function register<R extends RouteConfig>(v1: OpenAPIHono<AppEnv>, mounted: RegisteredRoute[], m: RouteModule<R>): void {
  const method = m.route.method.toUpperCase()
  const path = m.route.getRoutingPath()
  if (m.meta.scope) v1.on(method, path, scopeGuard(m.meta.scope))
  if (m.meta.idempotent) v1.on(method, path, idempotent({ answerInTransaction: m.meta.answerInTransaction ?? false }))
  v1.openapi(documentOperation(m.route, m.meta), m.handler)
  mounted.push({ method, path: `/v1${path}`, meta: m.meta })
}

/** Every `/v1` operation, one file each (schema, metadata and thin handler together); answers what was mounted. */
export function registerRoutes(v1: OpenAPIHono<AppEnv>): RegisteredRoute[] {
  const mounted: RegisteredRoute[] = []
  register(v1, mounted, getMe)
  register(v1, mounted, getWorkspace)
  register(v1, mounted, updateWorkspace)
  register(v1, mounted, listAccounts)
  register(v1, mounted, getAccount)
  register(v1, mounted, disconnectAccount)
  register(v1, mounted, createConnectLink)
  register(v1, mounted, createReconnectLink)
  register(v1, mounted, listBoards)
  register(v1, mounted, listDestinations)
  register(v1, mounted, listPlatforms)
  register(v1, mounted, listPlatformAudio)
  register(v1, mounted, listPosts)
  register(v1, mounted, createPost)
  register(v1, mounted, validatePost)
  register(v1, mounted, bulkPosts)
  register(v1, mounted, getPost)
  register(v1, mounted, updatePost)
  register(v1, mounted, deletePost)
  register(v1, mounted, schedulePost)
  register(v1, mounted, publishPost)
  register(v1, mounted, retryPost)
  register(v1, mounted, submitPost)
  register(v1, mounted, approvePost)
  register(v1, mounted, requestPostChanges)
  register(v1, mounted, createUpload)
  register(v1, mounted, registerMedia)
  register(v1, mounted, listMedia)
  register(v1, mounted, getMedia)
  register(v1, mounted, updateMedia)
  register(v1, mounted, createVariants)
  register(v1, mounted, getQueueSlots)
  register(v1, mounted, replaceQueueSlots)
  register(v1, mounted, getAnalytics)
  register(v1, mounted, refreshAnalytics)
  register(v1, mounted, getPostAnalytics)
  register(v1, mounted, listInboxComments)
  register(v1, mounted, countInboxUnread)
  register(v1, mounted, listInboxMentions)
  register(v1, mounted, markInboxCommentsRead)
  register(v1, mounted, getInboxComment)
  register(v1, mounted, replyToInboxComment)
  register(v1, mounted, hideInboxComment)
  register(v1, mounted, unhideInboxComment)
  register(v1, mounted, likeInboxComment)
  register(v1, mounted, markInboxCommentRead)
  register(v1, mounted, markInboxCommentUnread)
  register(v1, mounted, deleteInboxComment)
  register(v1, mounted, getBestTimes)
  register(v1, mounted, createWebhook)
  register(v1, mounted, listWebhooks)
  register(v1, mounted, getWebhook)
  register(v1, mounted, updateWebhook)
  register(v1, mounted, deleteWebhook)
  register(v1, mounted, rotateWebhookSecret)
  register(v1, mounted, testWebhook)
  register(v1, mounted, listWebhookDeliveries)
  register(v1, mounted, listEvents)
  register(v1, mounted, streamEvents)
  register(v1, mounted, replayEvent)
  register(v1, mounted, listGroups)
  register(v1, mounted, createGroup)
  register(v1, mounted, getGroup)
  register(v1, mounted, updateGroup)
  register(v1, mounted, deleteGroup)
  register(v1, mounted, listLabels)
  register(v1, mounted, createLabel)
  register(v1, mounted, updateLabel)
  register(v1, mounted, deleteLabel)
  return mounted
}
