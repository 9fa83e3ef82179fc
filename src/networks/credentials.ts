/**
 * What a connected account's credentials hold, per platform and connection (the table is in
 * docs/decisions.md, "Platforms and connections"), as data: `account add --credentials` is checked
 * against it before the network is asked. `expiresAt` is stored as an ISO time; epoch seconds are
 * accepted and converted. The address of an account's own server must be https; plain http only
 * where ALLOW_PRIVATE_URLS lets the service call such addresses at all (outbound.ts).
 */
import { z } from 'zod'
import type { Connection, PlatformId } from '../domain/vocabulary'

const text = z.string().trim().min(1, 'must not be empty')
const httpsUrl = z.url({ protocol: /^https$/, error: 'must be an https URL' })
const httpOrHttpsUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' })
const expiresAt = z
  .union([z.iso.datetime({ offset: true }), z.number().int().positive()])
  .transform((v) => (typeof v === 'number' ? new Date(v * 1000).toISOString() : new Date(v).toISOString()))

const oauthWithRefresh = { accessToken: text, refreshToken: text, expiresAt }

type CredentialSchemas = Record<PlatformId, Partial<Record<Connection, z.ZodObject>>>

/** The schemas, with `url` for the addresses of an account's own server. */
const credentialSchemas = (url: typeof httpsUrl): CredentialSchemas => ({
  PHOTO_NET: {
    SOCIALGRAPH_LOGIN: z.object({ accessToken: text, igUserId: text }),
    DIRECT_LOGIN: z.object({ accessToken: text, igUserId: text, expiresAt: expiresAt.optional() }),
  },
  SHORTVIDEO_NET: { DIRECT_LOGIN: z.object({ ...oauthWithRefresh, openId: text }) },
  MICROBLOG_NET: { DIRECT_LOGIN: z.object({ ...oauthWithRefresh, userId: text }) },
  MESSAGING_NET: {
    BOT_TOKEN: z.object({
      botToken: z.string().regex(/^\d+:[A-Za-z0-9_-]+$/, 'must look like 123456:ABC-DEF (from @BotFather)'),
      chatId: z.union([text, z.number().int()], { error: "must be the chat's id or @username" }).transform(String),
    }),
  },
  SOCIALGRAPH_NET: { DIRECT_LOGIN: z.object({ accessToken: text, pageId: text }) },
  PROFESSIONAL_NET: {
    DIRECT_LOGIN: z.object({
      accessToken: text,
      expiresAt,
      authorUrn: z
        .string()
        .regex(
          /^urn:li:(person|organization):[A-Za-z0-9_-]+$/,
          'must be urn:li:person:<id> or urn:li:organization:<id>',
        ),
    }),
  },
  TEXTTHREAD_NET: { DIRECT_LOGIN: z.object({ accessToken: text, expiresAt, userId: text }) },
  OPENPROTOCOL_NET: { APP_PASSWORD: z.object({ serviceUrl: url, identifier: text, appPassword: text }) },
  VIDEOSHARE_NET: { DIRECT_LOGIN: z.object({ ...oauthWithRefresh, channelId: text }) },
  PINBOARD_NET: { DIRECT_LOGIN: z.object(oauthWithRefresh) },
  BLOG_NET: { DIRECT_LOGIN: z.object({ ...oauthWithRefresh, blogId: text, blogName: text }) },
  FORUM_NET: { DIRECT_LOGIN: z.object({ ...oauthWithRefresh, username: text.optional() }) },
  FEDERATED_NET: { DIRECT_LOGIN: z.object({ instanceUrl: url, accessToken: text }) },
  RELAY_NET: {
    // The relay URLs are checked by the outbound guard when the adapter opens them (networks/sockets.ts).
    REMOTE_SIGNER: z.object({
      bunkerUrl: z
        .string()
        .trim()
        .regex(/^bunker:\/\/[0-9a-fA-F]{64}\?\S*relay=/, 'must be bunker://<public key>?relay=wss://…'),
      relays: z.string().trim().optional(),
    }),
    PRIVATE_KEY: z.object({
      privateKey: z
        .string()
        .trim()
        .regex(/^(nsec1[02-9ac-hj-np-z]{58}|[0-9a-fA-F]{64})$/, 'must be an nsec1… key or 64 hex characters'),
      relays: z
        .string()
        .trim()
        .regex(/^wss?:\/\//, 'must list the relays to publish to (wss://…)'),
    }),
  },
  COMMUNITY_NET: {
    // What the connect form asks; the network's answer is stored instead (adapters/community/session.ts).
    APP_PASSWORD: z.object({
      instanceUrl: url,
      username: text,
      password: text,
      totpToken: z
        .string()
        .trim()
        .regex(/^\d{6}$/, 'must be the 6-digit code of your authenticator app')
        .optional(),
    }),
  },
  LOCAL_NET: {
    DIRECT_LOGIN: z.object({
      ...oauthWithRefresh,
      accountName: z.string().regex(/^accounts\/[\w-]+$/, 'must be accounts/{accountId}'),
      locationName: z
        .string()
        .regex(/^accounts\/[\w-]+\/locations\/[\w-]+$/, 'must be accounts/{accountId}/locations/{locationId}'),
    }),
  },
  SITE_NET: {
    APP_PASSWORD: z.object({ siteUrl: url, username: text, applicationPassword: text }),
    DIRECT_LOGIN: z.object({ accessToken: text, siteId: z.union([text, z.number().int()]).transform(String) }),
  },
  DEVBLOG_NET: { API_KEY: z.object({ apiKey: text }) },
  CHAT_NET: {
    WEBHOOK: z.object({
      webhookUrl: url.refine(
        // zod runs this even when the value is no URL at all (that problem is already reported).
        (u) => !URL.canParse(u) || /\/webhooks\/\d+\/[^/?#]+/.test(new URL(u).pathname),
        'must be a webhook URL ending in /webhooks/<id>/<token>',
      ),
    }),
    BOT_TOKEN: z.object({ botToken: text, channelId: z.string().regex(/^\d+$/, "must be the channel's numeric id") }),
  },
  WORKCHAT_NET: {
    DIRECT_LOGIN: z.object({
      accessToken: text,
      refreshToken: text.optional(),
      expiresAt: expiresAt.optional(),
      botUserId: text.optional(),
      teamId: text.optional(),
    }),
    BOT_TOKEN: z.object({
      botToken: z.string().regex(/^xoxb-[A-Za-z0-9-]+$/, "must be the app's bot token (xoxb-...)"),
    }),
  },
})

export const CREDENTIAL_SCHEMAS = credentialSchemas(httpsUrl)
/** With ALLOW_PRIVATE_URLS (tests, local trials): the same, plain http let through. */
const PRIVATE_URL_SCHEMAS = credentialSchemas(httpOrHttpsUrl)

/** The connections a platform can be added with, SANDBOX aside. */
export const connectionsOf = (platform: PlatformId): Connection[] =>
  Object.keys(CREDENTIAL_SCHEMAS[platform]) as Connection[]

export type CredentialCheck = { ok: true; credentials: Record<string, unknown> } | { ok: false; problems: string[] }

/**
 * Checks credentials for a platform and connection; each problem names its field, with the schema's
 * own words for a value given but invalid and "is required" for one missing. `allowHttp`:
 * ALLOW_PRIVATE_URLS.
 */
export function checkCredentials(
  platform: PlatformId,
  connection: Connection,
  input: unknown,
  options: { allowHttp?: boolean } = {},
): CredentialCheck {
  const schema = (options.allowHttp ? PRIVATE_URL_SCHEMAS : CREDENTIAL_SCHEMAS)[platform][connection]
  if (!schema)
    return {
      ok: false,
      problems: [`${platform} connects through ${connectionsOf(platform).join(' or ')}, not ${connection}`],
    }
  // zod 4 leaves `input` out of its issues unless asked; it is what tells a missing value from a bad one.
  const parsed = schema.safeParse(input, { reportInput: true })
  if (parsed.success) return { ok: true, credentials: parsed.data as Record<string, unknown> }
  return {
    ok: false,
    problems: parsed.error.issues.map(
      (i) => `${i.path.join('.') || 'credentials'}: ${i.input === undefined ? 'is required' : i.message}`,
    ),
  }
}
