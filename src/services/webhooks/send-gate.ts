/**
 * What the delivery worker keeps across its attempts: the bounds on attempts in flight (in all, and
 * per endpoint, served in arrival order), and each endpoint's signers (its live secrets, opened and
 * keyed once rather than per attempt).
 */
import { Webhook } from 'standardwebhooks'
import type { WebhookEndpointRow } from '../../db/queries/webhook-endpoints'
import type { CredentialCipher } from '../../infra/credential-cipher'
import { headersSignedBy, openSecret } from './signing'

export interface SendGate {
  /** Waits for a free slot, in all and for `key`; answers the function that gives it back. */
  acquire(key: string): Promise<() => void>
}

/**
 * At most `total` holders at once, and at most `perKey` with one key. A waiter whose key is at its
 * bound does not hold up waiters of other keys.
 */
export function sendGate(bounds: { total: number; perKey: number }): SendGate {
  let running = 0
  const byKey = new Map<string, number>()
  const waiting: Array<{ key: string; start: () => void }> = []
  const startable = (key: string) => running < bounds.total && (byKey.get(key) ?? 0) < bounds.perKey
  const take = (key: string) => {
    running++
    byKey.set(key, (byKey.get(key) ?? 0) + 1)
  }
  const give = (key: string) => {
    running--
    const left = (byKey.get(key) ?? 1) - 1
    if (left === 0) byKey.delete(key)
    else byKey.set(key, left)
    for (let i = 0; i < waiting.length && running < bounds.total; ) {
      const next = waiting[i]!
      if (!startable(next.key)) {
        i++
        continue
      }
      waiting.splice(i, 1)
      take(next.key)
      next.start()
    }
  }
  return {
    acquire(key) {
      const release = () => give(key)
      if (startable(key)) {
        take(key)
        return Promise.resolve(release)
      }
      return new Promise((resolve) => waiting.push({ key, start: () => resolve(release) }))
    },
  }
}

export interface Signer {
  /** The three Standard Webhooks headers, signed by every live secret (the current one first). */
  sign(message: { id: string; timestamp: Date; body: string }): Record<string, string>
}

/**
 * Each endpoint's signer, made once per sealed secret pair: the secrets opened (AES-GCM) and their
 * HMAC keys decoded once, not per attempt. A rotation seals new values, so it makes a new signer.
 */
export function signerCache(cipher: CredentialCipher): {
  of(endpoint: WebhookEndpointRow, now: Date): Promise<Signer>
} {
  const made = new Map<string, Promise<Webhook[]>>()
  const MAX = 1000
  const open = async (endpoint: WebhookEndpointRow, previous: boolean) => {
    const hooks = [new Webhook(await openSecret(cipher, endpoint.secret, endpoint.id))]
    if (previous) hooks.push(new Webhook(await openSecret(cipher, endpoint.previousSecret!, endpoint.id)))
    return hooks
  }
  return {
    async of(endpoint, now) {
      const previous =
        endpoint.previousSecret !== null &&
        endpoint.previousSecretExpiresAt !== null &&
        endpoint.previousSecretExpiresAt > now
      const key = `${endpoint.id} ${endpoint.secret} ${previous ? endpoint.previousSecret : ''}`
      let hooks = made.get(key)
      if (!hooks) {
        if (made.size >= MAX) made.clear()
        hooks = open(endpoint, previous)
        made.set(key, hooks)
        hooks.catch(() => made.delete(key))
      }
      const signers = await hooks
      return {
        sign: (message) => headersSignedBy(signers, message),
      }
    },
  }
}
