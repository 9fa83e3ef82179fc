/**
 * Password hashing with WebCrypto PBKDF2-HMAC-SHA-256, the same code on Workers and Node.
 *
 * OWASP's Password Storage Cheat Sheet asks for 600,000 iterations of PBKDF2-HMAC-SHA-256. The Workers
 * runtime refuses more than 100,000 in one `deriveBits` call, so the work is done in chunks: each chunk is
 * a standard PBKDF2 over the previous chunk's output (the password for the first), with the same salt.
 * With one chunk it is plain PBKDF2. The stored string names the scheme, the iteration count and the
 * chunk size, so both can be raised later: `needsRehash` tells when a stored hash is weaker than today's.
 */
import { constantTimeEqual, fromBase64, toBase64 } from './crypto'

export const PASSWORD_SCHEME = 'pbkdf2-sha256'
/** OWASP's current figure for PBKDF2-HMAC-SHA-256. */
export const PASSWORD_ITERATIONS = 600_000
/** The most iterations the Workers runtime computes in one call. */
const CHUNK_ITERATIONS = 100_000
const SALT_BYTES = 16
const KEY_BITS = 256
/** A stored hash asking for more than this is refused rather than computed (a forged row cannot stall us). */
const MAX_ITERATIONS = 10_000_000

const encoder = new TextEncoder()

async function pbkdf2(secret: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>, iterations: number) {
  const key = await crypto.subtle.importKey('raw', secret, 'PBKDF2', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, KEY_BITS)
  return new Uint8Array(bits)
}

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number, chunk: number) {
  let secret: Uint8Array<ArrayBuffer> = encoder.encode(password) as Uint8Array<ArrayBuffer>
  for (let done = 0; done < iterations; done += chunk) {
    secret = await pbkdf2(secret, salt, Math.min(chunk, iterations - done))
  }
  return secret
}

/** A new salted hash of the password: `pbkdf2-sha256$600000$100000$<salt b64>$<hash b64>`. */
export async function hashPassword(password: string, iterations = PASSWORD_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(new ArrayBuffer(SALT_BYTES)))
  const hash = await derive(password, salt, iterations, CHUNK_ITERATIONS)
  return [PASSWORD_SCHEME, iterations, CHUNK_ITERATIONS, toBase64(salt), toBase64(hash)].join('$')
}

interface ParsedHash {
  iterations: number
  chunk: number
  salt: Uint8Array<ArrayBuffer>
  hash: string
}

function parse(stored: string): ParsedHash | null {
  const [scheme, iterations, chunk, salt, hash] = stored.split('$')
  if (scheme !== PASSWORD_SCHEME || !salt || !hash) return null
  const n = Number(iterations)
  const c = Number(chunk)
  if (!Number.isInteger(n) || n < 1 || n > MAX_ITERATIONS || !Number.isInteger(c) || c < 1 || c > CHUNK_ITERATIONS)
    return null
  return { iterations: n, chunk: c, salt: fromBase64(salt), hash }
}

/** Whether the password matches the stored hash; the comparison is constant-time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored)
  if (!parsed) return false
  const hash = await derive(password, parsed.salt, parsed.iterations, parsed.chunk)
  return constantTimeEqual(toBase64(hash), parsed.hash)
}

/** Whether a stored hash was made with fewer iterations than today's (re-hash it at the next sign-in). */
export function needsRehash(stored: string, iterations = PASSWORD_ITERATIONS): boolean {
  const parsed = parse(stored)
  return !parsed || parsed.iterations < iterations
}
