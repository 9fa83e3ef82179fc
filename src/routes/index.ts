import type { OpenAPIHono } from '@hono/zod-openapi'
import type { AppEnv } from '../http/context'
import * as listBoards from './accounts/boards'
import * as getAnalytics from './analytics/get'
import * as getBestTimes from './best-times/get'
import * as listAccounts from './accounts/list'
import * as getMe from './me/get'
import * as getMedia from './media/get'
import * as listMedia from './media/list'
import * as registerMedia from './media/register'
import * as createUpload from './media/upload'
import * as createVariants from './media/variants'
import { idempotent } from '../http/idempotency'
import * as bulkPosts from './posts/bulk'
import * as createPost from './posts/create'
import * as deletePost from './posts/delete'
import * as getPost from './posts/get'
import * as listPosts from './posts/list'
import * as publishPost from './posts/publish'
import * as retryPost from './posts/retry'
import * as schedulePost from './posts/schedule'
import * as updatePost from './posts/update'
import * as listPlatforms from './platforms/list'
import * as getQueueSlots from './queue-slots/get'
import * as replaceQueueSlots from './queue-slots/replace'

/** Every `/v1` operation: one file each, schema and thin handler together. */
export function registerRoutes(v1: OpenAPIHono<AppEnv>): void {
  // Routes that create things take an Idempotency-Key.
  for (const path of ['/posts', '/posts/bulk', '/posts/:id/publish', '/posts/:id/retry']) v1.use(path, idempotent())
  v1.openapi(getMe.route, getMe.handler)
  v1.openapi(listAccounts.route, listAccounts.handler)
  v1.openapi(listBoards.route, listBoards.handler)
  v1.openapi(listPlatforms.route, listPlatforms.handler)
  v1.openapi(listPosts.route, listPosts.handler)
  v1.openapi(createPost.route, createPost.handler)
  v1.openapi(bulkPosts.route, bulkPosts.handler)
  v1.openapi(getPost.route, getPost.handler)
  v1.openapi(updatePost.route, updatePost.handler)
  v1.openapi(deletePost.route, deletePost.handler)
  v1.openapi(schedulePost.route, schedulePost.handler)
  v1.openapi(publishPost.route, publishPost.handler)
  v1.openapi(retryPost.route, retryPost.handler)
  v1.openapi(createUpload.route, createUpload.handler)
  v1.openapi(registerMedia.route, registerMedia.handler)
  v1.openapi(listMedia.route, listMedia.handler)
  v1.openapi(getMedia.route, getMedia.handler)
  v1.openapi(createVariants.route, createVariants.handler)
  v1.openapi(getQueueSlots.route, getQueueSlots.handler)
  v1.openapi(replaceQueueSlots.route, replaceQueueSlots.handler)
  v1.openapi(getAnalytics.route, getAnalytics.handler)
  v1.openapi(getBestTimes.route, getBestTimes.handler)
}
