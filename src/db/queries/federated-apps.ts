/** Our OAuth app on each server of the federated network, registered once and remembered. */
import { eq } from 'drizzle-orm'
import { federatedApps } from '../schema'
import type { DbOrTx } from '../types'

export type FederatedAppRow = typeof federatedApps.$inferSelect

export async function findFederatedApp(db: DbOrTx, instanceOrigin: string): Promise<FederatedAppRow | null> {
  const [row] = await db.select().from(federatedApps).where(eq(federatedApps.instanceOrigin, instanceOrigin))
  return row ?? null
}

/** Stores (or replaces, after a re-registration) the app of a server. */
export async function saveFederatedApp(db: DbOrTx, values: typeof federatedApps.$inferInsert): Promise<void> {
  await db
    .insert(federatedApps)
    .values(values)
    .onConflictDoUpdate({
      target: federatedApps.instanceOrigin,
      set: { clientId: values.clientId, clientSecret: values.clientSecret, redirectUri: values.redirectUri },
    })
}
