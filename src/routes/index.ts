import type { OpenAPIHono } from '@hono/zod-openapi'
import type { AppEnv } from '../http/context'
import * as listAccounts from './accounts/list'
import * as getMe from './me/get'
import * as getMedia from './media/get'
import * as listMedia from './media/list'
import * as registerMedia from './media/register'
import * as createUpload from './media/upload'
import * as createVariants from './media/variants'
import * as listPlatforms from './platforms/list'
import * as getQueueSlots from './queue-slots/get'
import * as replaceQueueSlots from './queue-slots/replace'

/** Every `/v1` operation: one file each, schema and thin handler together. */
export function registerRoutes(v1: OpenAPIHono<AppEnv>): void {
  v1.openapi(getMe.route, getMe.handler)
  v1.openapi(listAccounts.route, listAccounts.handler)
  v1.openapi(listPlatforms.route, listPlatforms.handler)
  v1.openapi(createUpload.route, createUpload.handler)
  v1.openapi(registerMedia.route, registerMedia.handler)
  v1.openapi(listMedia.route, listMedia.handler)
  v1.openapi(getMedia.route, getMedia.handler)
  v1.openapi(createVariants.route, createVariants.handler)
  v1.openapi(getQueueSlots.route, getQueueSlots.handler)
  v1.openapi(replaceQueueSlots.route, replaceQueueSlots.handler)
}
