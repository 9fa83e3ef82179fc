/**
 * Each network of the registry as the garbage test drives it: its loopback fake, where the adapter
 * is pointed (the garbage proxy in front of the fake), the account's credentials, a post it takes,
 * how many posts the fake holds, and, as data, the route of its create/publish call (the call after
 * which a post exists) and the error object it answers in its own style. A platform of the registry
 * missing here fails the test (network-garbage.test.ts), so a new network gets a row.
 */
import type { NetworkClients, NetworkOrigins } from '../../../src/config'
import type { Connection, PlatformId } from '../../../src/domain/vocabulary'
import { startBlogFake } from '../../fakes/blog'
import { startChatFake } from '../../fakes/chat'
import { startCommunityFake } from '../../fakes/community'
import { startDevblogFake } from '../../fakes/devblog'
import { startFederatedFake } from '../../fakes/federated'
import { startForumFake } from '../../fakes/forum'
import { startLocalFake } from '../../fakes/local'
import { startMessagingFake } from '../../fakes/messaging'
import { startMicroblogFake } from '../../fakes/microblog'
import { startOpenProtocolFake } from '../../fakes/open-protocol'
import { startPhotoFake } from '../../fakes/photo'
import { startPinboardFake } from '../../fakes/pinboard'
import { startProfessionalFake } from '../../fakes/professional'
import { startShortVideoFake } from '../../fakes/short-video'
import { startSiteFake } from '../../fakes/site'
import { startSocialGraphFake } from '../../fakes/social-graph'
import { startTextThreadFake } from '../../fakes/text-thread'
import { startVideoShareFake } from '../../fakes/video-share'
import { startWorkchatFake } from '../../fakes/workchat'
import { storedMedia } from '../../support/fixtures'
import { jpeg, paint } from '../../support/media'
import type { TestApp } from '../../support/test-app'

export interface Route {
  method: string
  path: RegExp
}

/** One network's fake, started; `proxy` is the garbage proxy's origin in front of `upstream`. */
export interface StartedNetwork {
  upstream: string
  origins(proxy: string): Partial<NetworkOrigins>
  clients?: NetworkClients
  connection: Exclude<Connection, 'SANDBOX'>
  credentials(proxy: string): Record<string, unknown>
  externalId?: string
  /** The post's body (besides `accountIds` and `action`), media stored in `t`. */
  post(t: TestApp, accountId: string): Promise<Record<string, unknown>>
  /** Posts the network holds (the target's; each network here has one account). */
  posts(): number
}

export interface GarbageNetwork {
  /** The call after which the post exists at the network. */
  publish: Route
  /** Its media upload or status call, where the adapter has one (the proxy can garble it instead). */
  second?: Route
  /** A 200 carrying an error, in the network's own style. */
  errorObject: unknown
  start(now: () => Date): Promise<StartedNetwork>
}

const graphError = {
  error: { message: 'An unknown error occurred', type: 'OAuthException', code: 1, fbtrace_id: 'A1' },
}
const text = (caption: string) => async () => ({ caption })
const image = async (t: TestApp, width: number, height: number) =>
  storedMedia(t, {
    bytes: await jpeg(paint(width, height, () => [200, 40, 40])),
    mimeType: 'image/jpeg',
    width,
    height,
  })
const video = (t: TestApp) =>
  storedMedia(t, {
    bytes: Uint8Array.from({ length: 300_000 }, (_, i) => (i * 13) % 253),
    mimeType: 'video/mp4',
    width: 1080,
    height: 1920,
    durationSec: 40,
  })
const MICROBLOG_CLIENT = { clientId: 'mb-client-1', clientSecret: 'mb-secret-1' }
const BOARD = '549755813002'

/** Networks without an HTTP create call to garble: the relay network speaks WebSocket (its own tests cover silent and refusing relays). */
export const SOCKET_NETWORKS: readonly PlatformId[] = ['RELAY_NET']

export const GARBAGE_NETWORKS: Record<Exclude<PlatformId, 'RELAY_NET'>, GarbageNetwork> = {
  MICROBLOG_NET: {
    publish: { method: 'POST', path: /^\/2\/tweets$/ },
    errorObject: { errors: [{ code: 131, message: 'Internal error' }] },
    async start(now) {
      const fake = await startMicroblogFake({
        now,
        client: { id: MICROBLOG_CLIENT.clientId, secret: MICROBLOG_CLIENT.clientSecret },
      })
      return {
        upstream: fake.url,
        origins: (proxy) => ({ MICROBLOG_NET_API_URL: proxy }),
        clients: { MICROBLOG_NET: MICROBLOG_CLIENT },
        connection: 'DIRECT_LOGIN',
        credentials: () => ({
          accessToken: 'access-1',
          refreshToken: 'refresh-1',
          expiresAt: '2026-11-21T12:00:00.000Z',
          userId: fake.userId,
          username: fake.username,
        }),
        externalId: fake.userId,
        post: text('garbage on the microblog'),
        posts: () => fake.tweets.length,
      }
    },
  },
  OPENPROTOCOL_NET: {
    publish: { method: 'POST', path: /^\/xrpc\/com\.atproto\.repo\.(createRecord|applyWrites)$/ },
    errorObject: { error: 'InternalServerError', message: 'Internal Server Error' },
    async start(now) {
      const fake = await startOpenProtocolFake({ now })
      return {
        upstream: fake.url,
        origins: () => ({ OPENPROTOCOL_NET_VIDEO_URL: fake.videoUrl }),
        connection: 'APP_PASSWORD',
        credentials: (proxy) => ({ serviceUrl: proxy, identifier: fake.handle, appPassword: fake.appPassword }),
        externalId: fake.did,
        post: text('garbage on the open protocol'),
        posts: () => fake.posts().length,
      }
    },
  },
  FEDERATED_NET: {
    publish: { method: 'POST', path: /^\/api\/v1\/statuses$/ },
    errorObject: { error: 'Internal server error' },
    async start(now) {
      const fake = await startFederatedFake({ now })
      return {
        upstream: fake.url,
        origins: () => ({}),
        connection: 'DIRECT_LOGIN',
        credentials: (proxy) => ({ instanceUrl: proxy, accessToken: fake.token }),
        externalId: '109876',
        post: text('garbage on the federated server'),
        posts: () => fake.state.statuses.length,
      }
    },
  },
  COMMUNITY_NET: {
    publish: { method: 'POST', path: /^\/api\/v3\/post$/ },
    second: { method: 'POST', path: /^\/pictrs\/image$/ },
    errorObject: { error: 'couldnt_create_post' },
    async start(now) {
      const fake = await startCommunityFake({ now })
      const jwt = fake.openSession()
      return {
        upstream: fake.url,
        origins: () => ({}),
        connection: 'APP_PASSWORD',
        credentials: (proxy) => ({ instanceUrl: proxy, username: 'alice', jwt, personId: 7 }),
        externalId: `${fake.url}/u/alice`,
        post: async (t, accountId) => ({
          caption: 'garbage in the community',
          title: 'Garbage in the community',
          mediaIds: [await image(t, 64, 48)],
          destinations: { [accountId]: '1' },
        }),
        posts: () => fake.state.posts.length,
      }
    },
  },
  TEXTTHREAD_NET: {
    publish: { method: 'POST', path: /\/threads_publish$/ },
    second: { method: 'POST', path: /\/threads$/ },
    errorObject: graphError,
    async start(now) {
      const fake = await startTextThreadFake({ now })
      return {
        upstream: fake.url,
        origins: (proxy) => ({ TEXTTHREAD_NET_API_URL: proxy }),
        connection: 'DIRECT_LOGIN',
        credentials: () => ({ accessToken: 'th-token', expiresAt: '2027-06-01T00:00:00Z', userId: fake.userId }),
        post: text('garbage on the text threads'),
        posts: () => fake.published().length,
      }
    },
  },
  MESSAGING_NET: {
    publish: { method: 'POST', path: /\/sendMessage$/ },
    errorObject: { ok: false, error_code: 500, description: 'Internal Server Error' },
    async start(now) {
      const fake = await startMessagingFake({ now })
      return {
        upstream: fake.url,
        origins: (proxy) => ({ MESSAGING_NET_API_URL: proxy }),
        connection: 'BOT_TOKEN',
        credentials: () => ({ botToken: fake.token, chatId: String(fake.chat.id), chatUsername: fake.chat.username }),
        externalId: String(fake.chat.id),
        post: text('garbage on the messenger'),
        posts: () => fake.messages.length,
      }
    },
  },
  CHAT_NET: {
    publish: { method: 'POST', path: /^\/api\/webhooks\/\d+\/[^/]+$/ },
    errorObject: { message: 'Internal Server Error', code: 0 },
    async start() {
      const fake = await startChatFake()
      return {
        upstream: fake.url,
        origins: (proxy) => ({ CHAT_NET_API_URL: proxy }),
        connection: 'WEBHOOK',
        credentials: (proxy) => ({ webhookUrl: fake.webhookUrl.replace(fake.url, proxy) }),
        post: text('garbage on the chat'),
        posts: () => fake.state.messages.length,
      }
    },
  },
  LOCAL_NET: {
    publish: { method: 'POST', path: /^\/v4\/accounts\/101\/locations\/9001\/localPosts$/ },
    errorObject: { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } },
    async start(now) {
      const fake = await startLocalFake()
      fake.state.clock = now
      return {
        upstream: fake.url,
        // The posts API goes through the proxy; accounts, locations and tokens straight to the fake.
        origins: (proxy) => ({
          LOCAL_NET_API_URL: proxy,
          LOCAL_NET_ACCOUNTS_URL: fake.url,
          LOCAL_NET_LOCATIONS_URL: fake.url,
          LOCAL_NET_OAUTH_URL: fake.url,
        }),
        clients: { LOCAL_NET: { clientId: fake.client.id, clientSecret: fake.client.secret } },
        connection: 'DIRECT_LOGIN',
        credentials: () => ({
          accessToken: fake.state.accessToken,
          refreshToken: fake.state.refreshToken,
          expiresAt: '2026-11-21T11:00:00Z',
          accountName: 'accounts/101',
          locationName: 'accounts/101/locations/9001',
        }),
        externalId: 'locations/9001',
        post: async (t) => ({ caption: 'garbage on the local listing', mediaIds: [await image(t, 1200, 900)] }),
        posts: () => fake.state.posts.size,
      }
    },
  },
  WORKCHAT_NET: {
    publish: { method: 'POST', path: /^\/api\/chat\.postMessage$/ },
    errorObject: { ok: false, error: 'internal_error' },
    async start(now) {
      const fake = await startWorkchatFake()
      fake.state.clock = now
      return {
        upstream: fake.url,
        origins: (proxy) => ({ WORKCHAT_NET_API_URL: proxy }),
        connection: 'BOT_TOKEN',
        credentials: () => ({
          botToken: fake.state.accessToken,
          botUserId: fake.botUser,
        }),
        post: async (_t, accountId) => ({
          caption: 'garbage on the workchat',
          destinations: { [accountId]: 'C0GENERAL1' },
        }),
        posts: () => fake.state.messages.length,
      }
    },
  },
  FORUM_NET: {
    publish: { method: 'POST', path: /^\/api\/submit$/ },
    errorObject: { json: { errors: [['SOMETHING_WRONG', 'something went wrong', 'sr']] } },
    async start(now) {
      const fake = await startForumFake({})
      fake.state.clock = now
      return {
        upstream: fake.url,
        origins: (proxy) => ({ FORUM_NET_API_URL: proxy, FORUM_NET_OAUTH_URL: proxy }),
        clients: {
          FORUM_NET: { clientId: 'forum-client', clientSecret: 'forum-secret', userAgent: 'server:garbage-test:v1' },
        },
        connection: 'DIRECT_LOGIN',
        credentials: () => ({
          accessToken: 'forum_access_1',
          refreshToken: 'forum_refresh_1',
          expiresAt: '2026-12-20T10:00:00.000Z',
          username: 'corner_bakery',
        }),
        externalId: 't2_a1b2c3',
        post: async (_t, accountId) => ({
          caption: 'Garbage on the forum\n\nA self post body.',
          destinations: { [accountId]: 'bakers' },
        }),
        posts: () => fake.visible().length,
      }
    },
  },
  DEVBLOG_NET: {
    publish: { method: 'POST', path: /^\/api\/articles$/ },
    errorObject: { error: 'Internal server error', status: 500 },
    async start(now) {
      const fake = await startDevblogFake({ now })
      return {
        upstream: fake.url,
        origins: (proxy) => ({ DEVBLOG_NET_API_URL: proxy }),
        connection: 'API_KEY',
        credentials: () => ({ apiKey: fake.apiKey }),
        externalId: '4242',
        post: async () => ({ caption: 'garbage on the developer blog', title: 'Garbage' }),
        posts: () => fake.state.articles.length,
      }
    },
  },
  SITE_NET: {
    publish: { method: 'POST', path: /^\/wp-json\/wp\/v2\/posts$/ },
    errorObject: { code: 'internal_server_error', message: 'There has been a critical error.', data: { status: 500 } },
    async start(now) {
      const fake = await startSiteFake({ now })
      return {
        upstream: fake.url,
        origins: () => ({}),
        connection: 'APP_PASSWORD',
        credentials: (proxy) => ({
          siteUrl: proxy,
          username: fake.self.username,
          applicationPassword: fake.self.applicationPassword,
        }),
        post: async () => ({ caption: 'garbage on the site', title: 'Garbage' }),
        posts: () => fake.self.site.posts.length,
      }
    },
  },
  PHOTO_NET: {
    publish: { method: 'POST', path: /\/media_publish$/ },
    second: { method: 'POST', path: /\/\d+\/media$/ },
    errorObject: graphError,
    async start(now) {
      const fake = await startPhotoFake({ host: 'facebook', now, processingPolls: 0 })
      return {
        upstream: fake.url,
        origins: (proxy) => ({ PHOTO_NET_API_URL: proxy }),
        connection: 'SOCIALGRAPH_LOGIN',
        credentials: () => ({ accessToken: 'ig-token', igUserId: fake.igUserId }),
        post: async (t) => ({ caption: 'garbage on the photos', mediaIds: [await image(t, 1080, 1350)] }),
        posts: () => fake.state.media.length,
      }
    },
  },
  SOCIALGRAPH_NET: {
    publish: { method: 'POST', path: /\/1010\/feed$/ },
    errorObject: graphError,
    async start(now) {
      const fake = await startSocialGraphFake()
      fake.state.clock = now
      return {
        upstream: fake.url,
        origins: (proxy) => ({ SOCIALGRAPH_NET_API_URL: proxy }),
        connection: 'DIRECT_LOGIN',
        credentials: () => ({ accessToken: 'EAAPageToken', pageId: '1010' }),
        externalId: '1010',
        post: text('garbage on the page'),
        posts: () => fake.state.posts.size,
      }
    },
  },
  PROFESSIONAL_NET: {
    publish: { method: 'POST', path: /^\/rest\/posts$/ },
    errorObject: { status: 500, serviceErrorCode: 0, message: 'Internal Server Error' },
    async start() {
      const fake = await startProfessionalFake({ processingPolls: 0 })
      return {
        upstream: fake.url,
        origins: (proxy) => ({ PROFESSIONAL_NET_API_URL: proxy }),
        connection: 'DIRECT_LOGIN',
        credentials: () => ({
          accessToken: 'li-token',
          expiresAt: '2027-01-15T00:00:00.000Z',
          authorUrn: 'urn:li:person:abc123',
        }),
        post: text('garbage on the professional network'),
        posts: () => fake.state.posts.length,
      }
    },
  },
  SHORTVIDEO_NET: {
    publish: { method: 'POST', path: /^\/v2\/post\/publish\/(video|inbox\/video|content)\/init\/$/ },
    second: { method: 'POST', path: /^\/v2\/post\/publish\/status\/fetch\/$/ },
    errorObject: { data: {}, error: { code: 'internal_error', message: 'Something went wrong', log_id: 'L1' } },
    async start() {
      const fake = await startShortVideoFake()
      return {
        upstream: fake.url,
        origins: (proxy) => ({ SHORTVIDEO_NET_API_URL: proxy }),
        clients: { SHORTVIDEO_NET: { clientId: 'tt_client', clientSecret: 'tt_secret' } },
        connection: 'DIRECT_LOGIN',
        credentials: () => ({
          accessToken: fake.state.accessToken,
          refreshToken: fake.state.refreshToken,
          expiresAt: '2026-11-21T12:00:00Z',
          openId: 'open_123',
        }),
        externalId: 'open_123',
        post: async (t, accountId) => ({
          type: 'REEL',
          caption: 'garbage on the short videos',
          mediaIds: [await video(t)],
          videoNetOptions: { [accountId]: { privacyLevel: 'PUBLIC_TO_EVERYONE' } },
        }),
        posts: () => fake.state.posts.length,
      }
    },
  },
  VIDEOSHARE_NET: {
    publish: { method: 'PUT', path: /^\/upload\/youtube\/v3\/videos$/ },
    second: { method: 'GET', path: /^\/youtube\/v3\/videos$/ },
    errorObject: {
      error: { code: 500, message: 'Backend Error', errors: [{ reason: 'backendError' }], status: 'INTERNAL' },
    },
    async start() {
      const fake = await startVideoShareFake()
      fake.state.processingPolls = 0
      return {
        upstream: fake.url,
        origins: (proxy) => ({ VIDEOSHARE_NET_API_URL: proxy, VIDEOSHARE_NET_OAUTH_URL: fake.url }),
        clients: { VIDEOSHARE_NET: { clientId: 'yt_client', clientSecret: 'yt_secret' } },
        connection: 'DIRECT_LOGIN',
        credentials: () => ({
          accessToken: fake.state.accessToken,
          refreshToken: fake.state.refreshToken,
          expiresAt: '2026-11-21T11:00:00Z',
          channelId: 'UC_channel_1',
        }),
        externalId: 'UC_channel_1',
        post: async (t) => ({ type: 'REEL', caption: 'garbage on the video share', mediaIds: [await video(t)] }),
        posts: () => fake.state.videos.length,
      }
    },
  },
  PINBOARD_NET: {
    publish: { method: 'POST', path: /^\/v5\/pins$/ },
    errorObject: { code: 1, message: 'Something went wrong' },
    async start(now) {
      const fake = await startPinboardFake({})
      fake.state.clock = now
      return {
        upstream: fake.url,
        origins: (proxy) => ({ PINBOARD_NET_API_URL: proxy }),
        clients: { PINBOARD_NET: { clientId: 'pin-client', clientSecret: 'pin-secret' } },
        connection: 'DIRECT_LOGIN',
        credentials: () => ({
          accessToken: 'pina_access_1',
          refreshToken: 'pinr_refresh_1',
          expiresAt: '2026-12-20T10:00:00.000Z',
        }),
        externalId: '7788',
        post: async (t, accountId) => ({
          caption: 'garbage on the pinboard',
          mediaIds: [await image(t, 1000, 1500)],
          pinboardNetBoards: { [accountId]: BOARD },
        }),
        posts: () => fake.state.pins.size,
      }
    },
  },
  BLOG_NET: {
    publish: { method: 'POST', path: /^\/v2\/blog\/[^/]+\/posts$/ },
    errorObject: { meta: { status: 200, msg: 'OK' }, response: { errors: [{ title: 'Something went wrong' }] } },
    async start(now) {
      const fake = await startBlogFake()
      fake.state.clock = now
      return {
        upstream: fake.url,
        origins: (proxy) => ({ BLOG_NET_API_URL: proxy }),
        clients: { BLOG_NET: { clientId: 'tumblr-key', clientSecret: 'tumblr-secret' } },
        connection: 'DIRECT_LOGIN',
        credentials: () => ({
          accessToken: 'tb_access_1',
          refreshToken: 'tb_refresh_1',
          expiresAt: '2026-12-20T10:00:00.000Z',
          blogId: 't:AdaBakes0000000000001',
          blogName: 'ada-bakes',
        }),
        externalId: 't:AdaBakes0000000000001',
        post: async (t) => ({ caption: 'garbage on the blog', mediaIds: [await image(t, 800, 1000)] }),
        posts: () => fake.state.posts.length,
      }
    },
  },
}
