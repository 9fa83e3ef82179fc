/** The real networks' adapters, one per platform id (each in networks/adapters/). */
import type { NetworkAdapter } from './adapter'
import type { AdapterOptions } from './adapters/options'
import { createMicroblogAdapter } from './adapters/microblog'
import { createOpenProtocolAdapter } from './adapters/open-protocol'
import { createFederatedAdapter } from './adapters/federated'
import { createTextThreadAdapter } from './adapters/text-thread'
import { createMessagingAdapter } from './adapters/messaging'
import { createChatAdapter } from './adapters/chat'
import { createPhotoAdapter } from './adapters/photo'
import { createSocialGraphAdapter } from './adapters/social-graph'
import { createProfessionalAdapter } from './adapters/professional'
import { createShortVideoAdapter } from './adapters/short-video'
import { createVideoShareAdapter } from './adapters/video-share'
import { createPinboardAdapter } from './adapters/pinboard'
import { createRelayAdapter } from './adapters/relay'
import { createCommunityAdapter } from './adapters/community'
import { createBlogAdapter } from './adapters/blog'
import { createLocalAdapter } from './adapters/local/index'
import { createWorkchatAdapter } from './adapters/workchat/index'
import { createForumAdapter } from './adapters/forum'
import { createDevblogAdapter } from './adapters/devblog'
import { createSiteAdapter } from './adapters/site'
import type { PlatformId } from '../domain/vocabulary'

export function createRealAdapters(options: AdapterOptions): Record<PlatformId, NetworkAdapter> {
  return {
    MICROBLOG_NET: createMicroblogAdapter(options),
    OPENPROTOCOL_NET: createOpenProtocolAdapter(options),
    FEDERATED_NET: createFederatedAdapter(options),
    TEXTTHREAD_NET: createTextThreadAdapter(options),
    MESSAGING_NET: createMessagingAdapter(options),
    CHAT_NET: createChatAdapter(options),
    PHOTO_NET: createPhotoAdapter(options),
    SOCIALGRAPH_NET: createSocialGraphAdapter(options),
    PROFESSIONAL_NET: createProfessionalAdapter(options),
    SHORTVIDEO_NET: createShortVideoAdapter(options),
    VIDEOSHARE_NET: createVideoShareAdapter(options),
    PINBOARD_NET: createPinboardAdapter(options),
    RELAY_NET: createRelayAdapter(options),
    COMMUNITY_NET: createCommunityAdapter(options),
    BLOG_NET: createBlogAdapter(options),
    LOCAL_NET: createLocalAdapter(options),
    WORKCHAT_NET: createWorkchatAdapter(options),
    FORUM_NET: createForumAdapter(options),
    SITE_NET: createSiteAdapter(options),
    DEVBLOG_NET: createDevblogAdapter(options),
  }
}
