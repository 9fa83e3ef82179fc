/**
 * A workspace's first steps (the dashboard's onboarding checklist): connect an account, compose a
 * post, schedule one, and reach it from code (an API token or a webhook). Each step is read from the
 * workspace's own data, so it is ticked whoever took it and however (dashboard, API, MCP).
 */
import { selectFirstSteps } from '../../db/queries/onboarding'
import type { Db } from '../../db/types'

export type FirstStep = 'connect' | 'compose' | 'schedule' | 'integrate'

export interface FirstStepsProgress {
  done: Record<FirstStep, boolean>
  /** Whether every step is done (the checklist is no longer shown). */
  complete: boolean
}

/** Which of the workspace's first steps are done. */
export async function firstStepsProgress(db: Db, workspaceId: string): Promise<FirstStepsProgress> {
  const row = await selectFirstSteps(db, workspaceId)
  const done: Record<FirstStep, boolean> = {
    connect: row.hasAccount,
    compose: row.hasPost,
    schedule: row.hasScheduledPost,
    integrate: row.hasLiveToken || row.hasWebhook,
  }
  return { done, complete: Object.values(done).every(Boolean) }
}
