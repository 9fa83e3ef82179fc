/**
 * The WebSocket opener on Node (networks/sockets.ts): the `ws` package's client, since Node 20
 * has no global WebSocket without a flag. Its client has the WHATWG event API the adapters use.
 */
import WebSocket from 'ws'
import type { OpenSocket, SocketLike } from '../networks/sockets'

export const nodeOpenSocket: OpenSocket = (url) => new WebSocket(url) as unknown as SocketLike
