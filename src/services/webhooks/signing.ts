/**
 * Standard Webhooks signing (https://www.standardwebhooks.com) with the `standardwebhooks` package:
 * secrets are `whsec_` and base64 of 32 random bytes; a message carries `webhook-id`,
 * `webhook-timestamp` and `webhook-signature` (`v1,<base64>`, space-separated, one per live secret).
 */
import { Webhook } from 'standardwebhooks'
import type { CredentialCipher } from '../../infra/credential-cipher'
import { toBase64 } from '../../lib/crypto'

export const newWebhookSecret = (): string => `whsec_${toBase64(crypto.getRandomValues(new Uint8Array(32)))}`

/** The secret sealed at rest like network credentials, bound to its endpoint. */
export const sealSecret = (cipher: CredentialCipher, secret: string, endpointId: string): Promise<string> =>
  cipher.encrypt({ secret }, endpointId)

export async function openSecret(cipher: CredentialCipher, sealed: string, endpointId: string): Promise<string> {
  const { secret } = await cipher.decrypt(sealed, endpointId)
  if (typeof secret !== 'string') throw new Error('unreadable webhook secret')
  return secret
}

/** The three headers of a message signed with every secret given (the current one first). */
export function signedHeaders(
  secrets: string[],
  message: { id: string; timestamp: Date; body: string },
): Record<string, string> {
  return headersSignedBy(
    secrets.map((s) => new Webhook(s)),
    message,
  )
}

/** `signedHeaders` with the secrets' keys already made (a worker keeps them per endpoint). */
export function headersSignedBy(
  keys: Webhook[],
  message: { id: string; timestamp: Date; body: string },
): Record<string, string> {
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
    'webhook-signature': keys.map((k) => k.sign(message.id, message.timestamp, message.body)).join(' '),
  }
}
