/**
 * The networks an account owner connects through OAuth on the hosted connect page, each one's
 * settings as data beside its adapter (`adapters/<network>/oauth.ts`).
 */
import type { PlatformId } from '../domain/vocabulary'
import { MICROBLOG_OAUTH } from './adapters/microblog/oauth'
import { PHOTO_OAUTH } from './adapters/photo/oauth'
import { PINBOARD_OAUTH } from './adapters/pinboard/oauth'
import { PROFESSIONAL_OAUTH } from './adapters/professional/oauth'
import { SOCIALGRAPH_OAUTH } from './adapters/social-graph/oauth'
import { SHORTVIDEO_OAUTH } from './adapters/short-video/oauth'
import { TEXTTHREAD_OAUTH } from './adapters/text-thread/oauth'
import { VIDEOSHARE_OAUTH } from './adapters/video-share/oauth'
import { BLOG_OAUTH } from './adapters/blog/oauth'
import { LOCAL_OAUTH } from './adapters/local/oauth'
import { WORKCHAT_OAUTH } from './adapters/workchat/oauth'
import { FORUM_OAUTH } from './adapters/forum/oauth'
import { SITE_OAUTH } from './adapters/site/oauth'
import type { OAuthProvider } from './oauth-connect'

export const OAUTH_PROVIDERS: Partial<Record<PlatformId, OAuthProvider>> = {
  MICROBLOG_NET: MICROBLOG_OAUTH,
  VIDEOSHARE_NET: VIDEOSHARE_OAUTH,
  PINBOARD_NET: PINBOARD_OAUTH,
  SHORTVIDEO_NET: SHORTVIDEO_OAUTH,
  PROFESSIONAL_NET: PROFESSIONAL_OAUTH,
  SOCIALGRAPH_NET: SOCIALGRAPH_OAUTH,
  PHOTO_NET: PHOTO_OAUTH,
  TEXTTHREAD_NET: TEXTTHREAD_OAUTH,
  BLOG_NET: BLOG_OAUTH,
  LOCAL_NET: LOCAL_OAUTH,
  WORKCHAT_NET: WORKCHAT_OAUTH,
  FORUM_NET: FORUM_OAUTH,
  SITE_NET: SITE_OAUTH,
}
