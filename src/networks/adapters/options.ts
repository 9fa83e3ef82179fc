import type { NetworkClients, NetworkOrigins } from '../../config'

/**
 * What an adapter is built with: this service's OAuth clients (token refresh) and the configured
 * origins, for the few calls that do not go to the account's own API origin (the open-protocol
 * network's video service, the video-share network's token endpoint). Never env, never a database.
 */
export interface AdapterOptions {
  clients: NetworkClients
  origins: NetworkOrigins
}
