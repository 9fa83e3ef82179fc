import type { PlatformId } from '../../domain/vocabulary'
import type { OAuthClient } from '../oauth'
import type { RelaySockets } from '../sockets'

/**
 * What an adapter is built with: this service's OAuth clients (token refresh) and the configured
 * origins, for the few calls that do not go to the account's own API origin (the open-protocol
 * network's video service, the video-share network's token endpoint). Never env, never a database.
 */
export interface AdapterOptions {
  /** By platform; a network without one cannot renew its tokens. */
  clients: Partial<Record<PlatformId, OAuthClient>>
  /** Every configured origin by its key; adapters read these two. */
  origins: Record<string, string> & { OPENPROTOCOL_NET_VIDEO_URL: string; VIDEOSHARE_NET_OAUTH_URL: string }
  /** WebSockets under the outbound guard (the relay network); absent: that network cannot connect. */
  sockets?: RelaySockets
}
