/** The composer's preview column, rendered on the server from the same tree the script draws. */
import { jsx } from 'hono/jsx'
import { type NetworkPreview, previewOn } from '../../domain/post-preview'
import type { AccountRecord } from '../../services/accounts/accounts'
import type { MediaAsset } from '../../services/media/assets'
import type { ComposeValues } from './compose-form'
import type { BoardChoices } from './compose-fields'
import {
  NO_PREVIEW,
  type PreviewAccount,
  type PreviewNode,
  previewCard,
  previewPostOf,
} from '../client/composer/preview-tree'

/** A preview tree as hono JSX (text children are escaped by the renderer). */
export function toJsx(node: PreviewNode | string): ReturnType<typeof jsx> | string {
  if (typeof node === 'string') return node
  return jsx(node.tag, node.attrs, ...node.children.map(toJsx))
}

/** The board's name when the account's boards are listed, else the id typed. */
function boardName(boards: BoardChoices, accountId: string, id: string | undefined): string | undefined {
  if (!id) return undefined
  const listed = boards[accountId]
  return typeof listed === 'object' ? (listed.find((b) => b.id === id)?.name ?? id) : id
}

export interface PreviewedAccount {
  account: PreviewAccount
  preview: NetworkPreview
}

/** The selected accounts with their previews of the form's values. */
export function previewAccountsOf(
  accounts: AccountRecord[],
  v: ComposeValues,
  boards: BoardChoices,
  media: MediaAsset[] = [],
): PreviewedAccount[] {
  const post = previewPostOf(v, new Map(media.map((m) => [m.id, m])))
  return accounts
    .filter((a) => v.accountIds.includes(a.id))
    .map((a) => {
      const account: PreviewAccount = {
        id: a.id,
        username: a.username,
        platform: a.platform,
        board: boardName(boards, a.id, v.boards[a.id]),
        privacy: v.privacy[a.id],
      }
      return { account, preview: previewOn(a.platform, post) }
    })
}

export function PreviewColumn({ cards }: { cards: PreviewedAccount[] }) {
  const nodes = cards.length === 0 ? [NO_PREVIEW] : cards.map((c) => previewCard(c.account, c.preview))
  return (
    <aside class="composer-previews">
      <section class="previews-sticky" tabindex={0} aria-labelledby="previews-title">
        <h2 id="previews-title">Preview</h2>
        <p class="hint">How the post looks on each network. Text past a network's limit is marked: it will be cut.</p>
        <div id="previews" class="preview-list">
          {nodes.map(toJsx)}
        </div>
      </section>
    </aside>
  )
}
