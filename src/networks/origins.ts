/** The real API origin of each network; `<PLATFORM_ID>_API_URL` points an adapter elsewhere (a deployment, a test). */
export const DEFAULT_NETWORK_ORIGINS = {
  MICROBLOG_NET_API_URL: 'https://api.x.com',
  TEXTTHREAD_NET_API_URL: 'https://graph.threads.net',
  PHOTO_NET_API_URL: 'https://graph.facebook.com',
  PHOTO_NET_DIRECT_API_URL: 'https://graph.instagram.com',
  SOCIALGRAPH_NET_API_URL: 'https://graph.facebook.com',
  PROFESSIONAL_NET_API_URL: 'https://api.linkedin.com',
  SHORTVIDEO_NET_API_URL: 'https://open.tiktokapis.com',
  VIDEOSHARE_NET_API_URL: 'https://www.googleapis.com',
  PINBOARD_NET_API_URL: 'https://api.pinterest.com',
  MESSAGING_NET_API_URL: 'https://api.telegram.org',
  CHAT_NET_API_URL: 'https://discord.com',
  BLOG_NET_API_URL: 'https://api.tumblr.com',
  WORKCHAT_NET_API_URL: 'https://slack.com',
  /** The forum network's API; its sign-in and token endpoints live on the www origin (`FORUM_NET_OAUTH_URL`). */
  FORUM_NET_API_URL: 'https://oauth.reddit.com',
  FORUM_NET_OAUTH_URL: 'https://www.reddit.com',
  SITE_NET_API_URL: 'https://public-api.wordpress.com',
  DEVBLOG_NET_API_URL: 'https://dev.to',
  OPENPROTOCOL_NET_VIDEO_URL: 'https://video.bsky.app',
  /** The local business network: local posts and reviews (API v4), accounts, and locations are three APIs. */
  LOCAL_NET_API_URL: 'https://mybusiness.googleapis.com',
  LOCAL_NET_ACCOUNTS_URL: 'https://mybusinessaccountmanagement.googleapis.com',
  LOCAL_NET_LOCATIONS_URL: 'https://mybusinessbusinessinformation.googleapis.com',
  LOCAL_NET_OAUTH_URL: 'https://oauth2.googleapis.com',
  /** The video-share network's token endpoint lives on its own origin. */
  VIDEOSHARE_NET_OAUTH_URL: 'https://oauth2.googleapis.com',
  /** Where account owners sign in and approve (the networks' authorization pages, for hosted connect). */
  MICROBLOG_NET_AUTHORIZE_URL: 'https://x.com',
  VIDEOSHARE_NET_AUTHORIZE_URL: 'https://accounts.google.com',
  LOCAL_NET_AUTHORIZE_URL: 'https://accounts.google.com',
  PINBOARD_NET_AUTHORIZE_URL: 'https://www.pinterest.com',
  SHORTVIDEO_NET_AUTHORIZE_URL: 'https://www.tiktok.com',
  /** Facebook Login's dialog: Pages, and Instagram accounts behind Pages. */
  SOCIALGRAPH_NET_AUTHORIZE_URL: 'https://www.facebook.com',
  PHOTO_NET_AUTHORIZE_URL: 'https://www.facebook.com',
  TEXTTHREAD_NET_AUTHORIZE_URL: 'https://threads.net',
  BLOG_NET_AUTHORIZE_URL: 'https://www.tumblr.com',
  WORKCHAT_NET_AUTHORIZE_URL: 'https://slack.com',
  FORUM_NET_AUTHORIZE_URL: 'https://www.reddit.com',
  /** WordPress.com signs people in on its API origin (self-hosted sites use the site's own address). */
  SITE_NET_AUTHORIZE_URL: 'https://public-api.wordpress.com',
  /** The professional network signs members in, and issues and revokes tokens, on its own site. */
  PROFESSIONAL_NET_OAUTH_URL: 'https://www.linkedin.com',
} as const
export type NetworkOriginKey = keyof typeof DEFAULT_NETWORK_ORIGINS
export type NetworkOrigins = Record<NetworkOriginKey, string>
