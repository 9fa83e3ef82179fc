/** Where QStash delivers publishes: `POST <PUBLIC_URL>/internal/publish` (src/routes/internal/publish.ts). */
export const PUBLISH_CALLBACK_PATH = '/internal/publish'

/** The public callback URL: what messages are published to, and what their signature's `sub` must be. */
export const publishCallbackUrl = (publicUrl: string): string =>
  `${publicUrl.replace(/\/+$/, '')}${PUBLISH_CALLBACK_PATH}`

/** The JSON body of a publish callback. */
export interface PublishCallbackBody {
  targetId: string
  version: number
}
