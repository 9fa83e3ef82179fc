/**
 * The options some networks take (first comment, reply, quote, link, pin title, board, who can watch),
 * and what the rules registry declares per target: a title, a destination, option fields.
 */
import { RULES } from '../../domain/rules/index'
import { type PostOptionsRules, VIDEO_NET_PRIVACY_LEVELS } from '../../domain/rules/schema'
import type { PlatformId } from '../../domain/vocabulary'
import type { AccountRecord } from '../../services/accounts/accounts'
import type { ComposeValues } from './compose-form'
import { BoardField, type BoardChoices, FieldErrors, TextField } from './compose-fields'
import { networkName } from '../client/composer/preview-tree'
import { choosesDestination, DestinationField, type DestinationChoices, OptionFields } from './compose-target-options'

const privacyLabel = (level: string) => level.charAt(0) + level.slice(1).toLowerCase().replaceAll('_', ' ')

export function NetworkOptions(p: {
  accounts: AccountRecord[]
  platforms: PlatformId[]
  boards: BoardChoices
  destinations: DestinationChoices
  values: ComposeValues
  errors: Record<string, string[]>
}) {
  const v = p.values
  const where = (pred: (o: PostOptionsRules) => boolean) => p.platforms.filter((x) => pred(RULES[x].options))
  const names = (ids: PlatformId[]) => ids.map(networkName).join(', ')
  const byPlatform = (x: PlatformId) => p.accounts.filter((a) => a.platform === x)
  const fields = [
    { name: 'firstComment', label: 'First comment', on: where((o) => o.firstComment !== null) },
    { name: 'replyToMicropostId', label: 'Reply to post (id or URL)', on: where((o) => o.replyToMicropostId) },
    { name: 'quoteMicropostId', label: 'Quote post (id or URL)', on: where((o) => o.quoteMicropostId) },
    { name: 'linkUrl', label: 'Link (card or pin destination)', on: where((o) => o.linkUrl !== null), type: 'url' },
    { name: 'pinTitle', label: 'Pin title', on: p.platforms.filter((x) => x === 'PINBOARD_NET') },
    { name: 'title', label: 'Title', on: p.platforms.filter((x) => RULES[x].title?.field === 'title') },
  ] as const
  const shown = fields.filter((f) => f.on.length > 0)
  const pins = byPlatform('PINBOARD_NET')
  const videos = byPlatform('SHORTVIDEO_NET')
  const placed = p.accounts.filter(choosesDestination)
  const optioned = p.accounts.filter((a) => RULES[a.platform].options.fields.length > 0)
  if (shown.length === 0 && pins.length === 0 && videos.length === 0 && placed.length === 0 && optioned.length === 0)
    return null
  return (
    <fieldset class="composer-section network-options">
      <legend>Network options</legend>
      {shown.map((f) => (
        <TextField
          name={f.name}
          label={`${f.label} (${names([...f.on])})`}
          value={v[f.name]}
          errors={p.errors}
          type={'type' in f ? f.type : 'text'}
          platforms={[...f.on]}
        />
      ))}
      {pins.map((a) => (
        <BoardField account={a} choices={p.boards[a.id]} value={v.boards[a.id] ?? ''} errors={p.errors} />
      ))}
      {placed.map((a) => (
        <DestinationField
          account={a}
          choices={p.destinations[a.id]}
          value={v.destinations[a.id] ?? ''}
          errors={p.errors}
        />
      ))}
      {optioned.map((a) => (
        <OptionFields account={a} values={v} errors={p.errors} />
      ))}
      {videos.map((a) => (
        <div class="field" data-accounts={a.id}>
          <label for={`privacy-${a.id}`}>
            Who can watch on {a.username} ({networkName(a.platform)})
          </label>
          <select name={`privacy.${a.id}`} id={`privacy-${a.id}`} aria-describedby={`errors-privacy-${a.id}`}>
            <option value="">Default (only me)</option>
            {VIDEO_NET_PRIVACY_LEVELS.map((level) => (
              <option value={level} selected={v.privacy[a.id] === level}>
                {privacyLabel(level)}
              </option>
            ))}
          </select>
          <FieldErrors field={`privacy-${a.id}`} errors={p.errors} />
        </div>
      ))}
    </fieldset>
  )
}
