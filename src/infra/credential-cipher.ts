import { fromBase64, toBase64 } from '../lib/crypto'

/**
 * Network credentials at rest: AES-256-GCM under a key from configuration, with the account id as
 * additional data so a ciphertext copied onto another account row does not decrypt.
 * Stored form: `v1.<iv base64>.<ciphertext+tag base64>`.
 */
export interface CredentialCipher {
  encrypt(credentials: Record<string, unknown>, boundTo: string): Promise<string>
  decrypt(stored: string, boundTo: string): Promise<Record<string, unknown>>
}

const encoder = new TextEncoder()

export async function createCredentialCipher(base64Key: string): Promise<CredentialCipher> {
  const raw = fromBase64(base64Key)
  if (raw.length !== 32) throw new Error('CREDENTIALS_KEY must be 32 bytes, base64-encoded')
  const key = await crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt'])
  return {
    async encrypt(credentials, boundTo) {
      const iv = crypto.getRandomValues(new Uint8Array(12))
      const sealed = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: encoder.encode(boundTo) },
        key,
        encoder.encode(JSON.stringify(credentials)),
      )
      return `v1.${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`
    },
    async decrypt(stored, boundTo) {
      const [version, iv, sealed] = stored.split('.')
      if (version !== 'v1' || !iv || !sealed) throw new Error('unreadable credentials')
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: fromBase64(iv), additionalData: encoder.encode(boundTo) },
        key,
        fromBase64(sealed),
      )
      return JSON.parse(new TextDecoder().decode(plain)) as Record<string, unknown>
    },
  }
}

/** A fresh random key, base64 (what `openssl rand -base64 32` prints). */
export function generateCredentialsKey(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(32)))
}
