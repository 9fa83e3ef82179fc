import type { PlatformId } from '../../domain/vocabulary'

/** Why the page cannot go on, in words for the account owner; `status` is the page's HTTP status. */
export class ConnectRefusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: 400 | 404 | 410 | 422 | 502 = 400,
    readonly redirectUrl: string | null = null,
  ) {
    super(message)
    this.name = 'ConnectRefusal'
  }
}

export interface Connected {
  /** The first (often the only) account connected. */
  accountId: string
  username: string
  platform: PlatformId
  redirectUrl: string | null
  reconnected: boolean
  /** Every account connected, the first included (several when the owner chose several identities). */
  accounts: Array<{ accountId: string; username: string }>
}
