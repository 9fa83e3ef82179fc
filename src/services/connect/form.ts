/**
 * Networks without OAuth, connected with a form on the same hosted page: the open-protocol
 * network (handle and app password), the community network (instance, login and password), the
 * messaging app (bot token and chat: the network is asked whether the bot may post there), the
 * chat community (webhook URL, or bot and channel), the relay network (a remote signer's bunker
 * URL, or a private key, and relays). The fields are those of the connection's credential schema
 * (networks/credentials.ts); the network confirms them (`verifyCredentials`) before anything is
 * stored.
 */
import type { Deps } from '../../deps'
import { AppError } from '../../domain/errors'
import type { Connection, PlatformId } from '../../domain/vocabulary'
import { CREDENTIAL_SCHEMAS } from '../../networks/credentials'
import { verifyConnection } from '../accounts/connection'
import { type Connected, ConnectRefusal } from './refusal'
import { storeConnectedAccount } from './store'
import { openLink } from './hosted'

export interface FormField {
  name: string
  label: string
  /** Typed as a password (never echoed back into the page). */
  secret: boolean
  hint: string | null
  defaultValue: string | null
}

const FIELD_TEXT: Record<string, { label: string; secret?: boolean; hint?: string; defaultValue?: string }> = {
  identifier: { label: 'Handle or email', hint: 'for example alice.bsky.social' },
  appPassword: { label: 'App password', secret: true, hint: 'Settings, Privacy and security, App passwords' },
  serviceUrl: {
    label: 'Server',
    hint: 'your account server; leave as is unless you host your own',
    defaultValue: 'https://bsky.social',
  },
  instanceUrl: { label: 'Instance', hint: "your account's server, as https://its.address" },
  username: { label: 'Username or email', hint: 'as you sign in to the site or instance' },
  password: { label: 'Password', secret: true, hint: 'used once to sign in; only the session it opens is kept' },
  totpToken: { label: 'Two-factor code', hint: 'only if your account has two-factor authentication' },
  botToken: { label: 'Bot token', secret: true, hint: 'as the platform gave it when the bot was created' },
  chatId: { label: 'Chat or channel', hint: "the chat's id, or @username of a public channel" },
  channelId: { label: 'Channel id', hint: "the channel's numeric id (developer mode, Copy Channel ID)" },
  siteUrl: { label: 'Site address', hint: 'the https address of your site, for example https://example.com' },
  applicationPassword: {
    label: 'Application password',
    secret: true,
    hint: 'Users, Profile, Application Passwords, Add New Application Password',
  },
  apiKey: { label: 'API key', secret: true, hint: 'Settings, Extensions, DEV Community API Keys, Generate API Key' },
  webhookUrl: {
    label: 'Webhook URL',
    secret: true,
    hint: 'channel settings, Integrations, Webhooks, Copy Webhook URL',
  },
  bunkerUrl: {
    label: 'Remote signer (bunker URL)',
    secret: true,
    hint: 'bunker://… as your signing app shows it; your key stays in that app',
  },
  privateKey: { label: 'Private key', secret: true, hint: 'nsec1… or 64 hex characters; stored encrypted' },
  relays: {
    label: 'Relays',
    hint: 'wss:// addresses, separated by spaces; your published relay list is used when there is one',
  },
}

/** The form's fields for this platform and connection, from its credential schema. */
export function formFieldsOf(platform: PlatformId, connection: Connection): FormField[] {
  const schema = CREDENTIAL_SCHEMAS[platform][connection]
  if (!schema) return []
  return Object.keys(schema.shape).map((name) => {
    const text = FIELD_TEXT[name]
    return {
      name,
      label: text?.label ?? name,
      secret: text?.secret ?? false,
      hint: text?.hint ?? null,
      defaultValue: text?.defaultValue ?? null,
    }
  })
}

/**
 * The submitted form: checked, confirmed by the network, stored. A problem is a `ConnectRefusal`
 * in words (the page shows the form again with it); nothing is stored.
 */
export async function submitConnectForm(
  deps: Pick<Deps, 'db' | 'cipher' | 'networks' | 'clock'>,
  token: string,
  form: Record<string, string>,
): Promise<Connected> {
  const { link, method } = await openLink(deps, token)
  if (method.kind !== 'form') throw new ConnectRefusal('not_form', `${link.platform} is not connected with a form.`)
  const credentials = Object.fromEntries(
    formFieldsOf(link.platform, link.connection).map((f) => [f.name, (form[f.name] ?? '').trim() || undefined]),
  )
  try {
    const verified = await verifyConnection(deps, { platform: link.platform, connection: link.connection, credentials })
    return await storeConnectedAccount(deps, link, verified)
  } catch (err) {
    if (err instanceof AppError) throw new ConnectRefusal('invalid_credentials', err.message, 422)
    throw err
  }
}
