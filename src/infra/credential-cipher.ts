import { fromBase64, toBase64 } from '../lib/crypto'

/**
 * Network credentials at rest: AES-256-GCM under a key from configuration, with the account id as
 * additional data so a ciphertext copied onto another account row does not decrypt.
 * Stored form: `v1.<iv base64>.<ciphertext+tag base64>`.
 */
export interface CredentialCipher {
  encrypt(credentials: Record<string, unknown>, boundTo: string): Promise<string>
  decrypt(stored: string, boundTo: string): Promise<Record<string, unknown>>
  /**
   * HMAC-SHA256 of `message` (unpadded base64url) under a key derived from the same secret for one
   * `purpose` only (HKDF-SHA256, the purpose as its info): a signature made for one use never checks
   * for another, and none reveals the encryption key.
   */
  sign(purpose: string, message: string): Promise<string>
}

const encoder = new TextEncoder()

export async function createCredentialCipher(base64Key: string): Promise<CredentialCipher> {
  const raw = fromBase64(base64Key)
  if (raw.length !== 32) throw new Error('CREDENTIALS_KEY must be 32 bytes, base64-encoded')
  const key = await crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt'])
  const signingKeys = new Map<string, Promise<CryptoKey>>()
  const signingKey = (purpose: string) => {
    let derived = signingKeys.get(purpose)
    if (!derived) {
      derived = deriveSigningKey(raw, purpose)
      signingKeys.set(purpose, derived)
    }
    return derived
  }
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
    async sign(purpose, message) {
      const mac = await crypto.subtle.sign('HMAC', await signingKey(purpose), encoder.encode(message))
      return toBase64(new Uint8Array(mac)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
    },
  }
}

/** An HMAC-SHA256 key for one purpose, derived from the configured secret with HKDF-SHA256. */
async function deriveSigningKey(secret: Uint8Array<ArrayBuffer>, purpose: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', secret, 'HKDF', false, ['deriveKey'])
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(32), info: encoder.encode(`sps-sign:${purpose}`) },
    base,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign'],
  )
}

/** A fresh random key, base64 (what `openssl rand -base64 32` prints). */
export function generateCredentialsKey(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(32)))
}
