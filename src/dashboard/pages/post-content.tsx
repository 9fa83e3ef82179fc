/**
 * What the post says, on its page: media as thumbnails with their alt text, the caption, the
 * override per network, the thread's parts in order, and every option the post carries.
 */
import type { PlatformId } from '../../domain/vocabulary'
import type { MediaAsset } from '../../services/media/assets'
import type { PostRecord } from '../../services/posts/record'
import { NetworkMark, networkName } from '../ui/network'

/** A media of the post: the asset, or null when it was deleted from the library since. */
export interface PostMedia {
  id: string
  asset: MediaAsset | null
}

const seconds = (s: number) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`

function MediaTile({ media, index }: { media: PostMedia; index: number }) {
  const a = media.asset
  if (!a) {
    return (
      <li class="post-media-item post-media-missing">
        <span>Media {index + 1}: no longer in the library</span>
      </li>
    )
  }
  const alt = a.altText?.trim() ?? ''
  return (
    <li class="post-media-item">
      {a.type === 'IMAGE' ? (
        <img src={a.url} alt={alt} width={160} height={160} />
      ) : (
        <span class="post-media-video" role="img" aria-label={alt || `Video ${index + 1}`}>
          Video{a.durationSec ? ` · ${seconds(a.durationSec)}` : ''}
        </span>
      )}
      <span class={alt ? 'post-media-alt' : 'post-media-alt post-media-alt-missing'}>
        {alt ? `Alt: ${alt}` : 'No alt text'}
      </span>
    </li>
  )
}

/** The media of the post in order, each a thumbnail with its alt text (or that it has none). */
export function PostMediaList({ media }: { media: PostMedia[] }) {
  if (media.length === 0) return null
  return (
    <section class="post-section" aria-labelledby="post-media-title">
      <h2 id="post-media-title">Media ({media.length})</h2>
      <ol class="post-media">
        {media.map((m, i) => (
          <MediaTile media={m} index={i} />
        ))}
      </ol>
    </section>
  )
}

/** The caption, then each network's own caption where the post overrides it. */
export function PostText({ post }: { post: PostRecord }) {
  const overrides = Object.entries(post.captionOverrides ?? {}) as Array<[PlatformId, string]>
  return (
    <section class="post-section" aria-labelledby="post-text-title">
      <h2 id="post-text-title">Caption</h2>
      {post.caption ? (
        <p class="post-caption">{post.caption}</p>
      ) : (
        <p class="muted">No caption{overrides.length ? ' (each network below has its own)' : ''}.</p>
      )}
      {overrides.length > 0 ? (
        <>
          <h3>Per network</h3>
          <dl class="post-overrides">
            {overrides.map(([platform, text]) => (
              <div class="post-override" data-platform={platform}>
                <dt>
                  <NetworkMark platform={platform} size="small" />
                  {networkName(platform)}
                </dt>
                <dd class="post-caption">{text}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
      {post.threadParts && post.threadParts.length > 0 ? (
        <>
          <h3>Thread ({post.threadParts.length + 1} parts)</h3>
          <ol class="post-thread" start={2}>
            {post.threadParts.map((part) => (
              <li class="post-caption">{part}</li>
            ))}
          </ol>
        </>
      ) : null}
    </section>
  )
}

const yesNo = (v: boolean | undefined) => (v === undefined ? null : v ? 'yes' : 'no')

/** The options the post carries, as label and value pairs (only what is set). */
export function postOptions(post: PostRecord, accountName: (id: string) => string): Array<[string, string]> {
  const out: Array<[string, string]> = [['Format', post.type.toLowerCase()]]
  if (post.labels.length > 0) out.push(['Labels', post.labels.map((l) => l.name).join(', ')])
  if (post.linkUrl) out.push(['Link', post.linkUrl])
  if (post.firstComment) out.push(['First comment', post.firstComment])
  if (post.replyToMicropostId) out.push(['Reply to', post.replyToMicropostId])
  if (post.quoteMicropostId) out.push(['Quotes', post.quoteMicropostId])
  if (post.pinboardNetOptions?.title) out.push(['Pin title', post.pinboardNetOptions.title])
  for (const [id, board] of Object.entries(post.pinboardNetBoards ?? {}))
    out.push([`Board (${accountName(id)})`, board])
  if (post.title) out.push(['Title', post.title])
  for (const [id, destination] of Object.entries(post.destinations ?? {}))
    out.push([`Destination (${accountName(id)})`, destination])
  for (const [id, values] of Object.entries(post.targetOptions ?? {}))
    for (const [key, value] of Object.entries(values))
      out.push([`${key} (${accountName(id)})`, Array.isArray(value) ? value.join(', ') : String(value)])
  for (const [id, o] of Object.entries(post.videoNetOptions ?? {})) {
    const parts = [
      o.privacyLevel ? `privacy ${o.privacyLevel.toLowerCase().replaceAll('_', ' ')}` : null,
      yesNo(o.disableComment) === 'yes' ? 'comments off' : null,
      yesNo(o.disableDuet) === 'yes' ? 'duets off' : null,
      yesNo(o.disableStitch) === 'yes' ? 'stitches off' : null,
      o.brandContentToggle ? 'branded content' : null,
      o.brandOrganicToggle ? 'own brand' : null,
    ].filter((p): p is string => p !== null)
    out.push([`Video options (${accountName(id)})`, parts.join(', ') || 'defaults'])
  }
  if (post.audio) out.push(['Audio', post.audio.audioId])
  if (post.recurrence) {
    const r = post.recurrence
    const every =
      r.interval === 1 ? r.frequency : `every ${r.interval} ${r.frequency.replace('ly', '').replace('dai', 'day')}s`
    out.push(['Repeats', `${every}, occurrence ${r.occurrence}${r.count ? ` of ${r.count}` : ''}`])
  }
  return out
}

/** The options section. */
export function PostOptions({ options }: { options: Array<[string, string]> }) {
  return (
    <section class="post-section" aria-labelledby="post-options-title">
      <h2 id="post-options-title">Options</h2>
      <dl class="post-options">
        {options.map(([label, value]) => (
          <div>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}
