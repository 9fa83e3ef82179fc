/** Shared set-up of the sandbox network's inbox tests: accounts, posts published through the adapter, comments. */
import { createDrizzleSandboxStore } from '../../../src/db/queries/sandbox-posts'
import type { NewSandboxComment } from '../../../src/domain/sandbox-comments'
import type { PlatformId } from '../../../src/domain/vocabulary'
import { randomBase62 } from '../../../src/lib/ids'
import type { AccountCallInput, PublishInput } from '../../../src/networks/adapter'
import { createSandboxAdapter } from '../../../src/networks/sandbox/adapter'
import type { TestApp } from '../../support/test-app'

export function sandboxFor(t: TestApp, pageSize = 2) {
  const store = createDrizzleSandboxStore(t.deps.db)
  const sandbox = createSandboxAdapter({ store, permalinkBase: 'https://sps.example.test', pageSize })
  return { store, sandbox }
}

export const callOf = (accountId: string, now = new Date()): AccountCallInput => ({
  accountId,
  connection: 'SANDBOX',
  credentials: { failMode: 'never' },
  fetch,
  baseUrl: '',
  now,
})

/** A text post published on the account through the adapter; its network id. */
export async function publishText(
  sandbox: ReturnType<typeof sandboxFor>['sandbox'],
  accountId: string,
  platform: PlatformId,
  text = 'Hello from the sandbox',
): Promise<string> {
  const input: PublishInput = {
    idempotencyKey: `tgt_${randomBase62(12)}`,
    accountId,
    connection: 'SANDBOX',
    credentials: { failMode: 'never' },
    content: {
      platform,
      type: 'IMAGE',
      text,
      media: [],
      threadParts: [],
      firstComment: null,
      replyToMicropostId: null,
      quoteMicropostId: null,
      videoNetOptions: null,
      audio: null,
      pinboardBoardId: null,
      pinTitle: null,
      linkUrl: null,
      title: null,
      destinationId: null,
      targetOptions: {},
    },
    progress: {},
    saveProgress: async () => {},
    attempt: 1,
    fetch,
    baseUrl: '',
    now: new Date(),
  }
  const result = await sandbox.publish(input)
  if (result.status !== 'published') throw new Error(`expected published, got ${JSON.stringify(result)}`)
  return result.platformPostId
}

/** A visitor's comment `secondsAfter` a fixed start, so the order is known. */
export function visitor(
  post: { id: string; accountId: string },
  text: string,
  secondsAfter: number,
  extra: Partial<NewSandboxComment> = {},
): NewSandboxComment {
  return {
    accountId: post.accountId,
    sandboxPostId: post.id,
    replyToId: null,
    authorName: 'Visitor',
    text,
    fromAccount: false,
    createdAt: new Date(Date.UTC(2026, 2, 10, 9, 0, secondsAfter)),
    ...extra,
  }
}
