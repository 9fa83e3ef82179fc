/**
 * The HTTP server of `npm start`: Node's listener handing each request to the app once it is ready,
 * headers up to 64 KiB and the API's 431 body beyond them, the port tried again while a server
 * stopped a moment ago still holds it, and a close that lets the requests in flight finish.
 */
import type { Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import type { NodeConfig } from '../config'
import { AppError } from '../domain/errors'
import { errorBody } from '../http/errors'
import { listenWithRetry } from '../infra/listen'
import { randomBase62 } from '../lib/ids'

export type Fetch = (request: Request, env: unknown) => Response | Promise<Response>

/** The address the server listens on, as a base URL. */
function baseUrl(info: AddressInfo): string {
  return `http://${info.address.includes(':') ? `[${info.address}]` : info.address}:${info.port}`
}

/**
 * Headers Node accepts (its default is 16 KiB): enough for any token, so an oversized one still
 * reaches the app and gets the API's 401 instead of a bare 431 from the parser.
 */
const MAX_HEADER_BYTES = 64 * 1024

/**
 * Headers beyond even that never reach the app: Node's parser refuses them and, by default,
 * answers a bare 431 with no body. Answer with the API's error body instead; every other client
 * error keeps Node's default handling (a bare 400, or nothing on a socket that cannot be written).
 */
const BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'
const NODE_DEFAULT_ANSWERS: Record<string, string> = {
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
  ERR_HTTP_REQUEST_TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
}

function answerOversizedHeaders(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code !== 'HPE_HEADER_OVERFLOW' || !socket.writable) {
      // What Node does without a listener (lib/_http_server.js socketOnError).
      if (socket.writable && socket.bytesWritten === 0)
        socket.write(NODE_DEFAULT_ANSWERS[err.code ?? ''] ?? BAD_REQUEST)
      socket.destroy(err)
      return
    }
    const requestId = `req_${randomBase62(20)}`
    const body = JSON.stringify(
      errorBody(
        new AppError(
          'invalid_request',
          `The request headers are too large: send at most ${MAX_HEADER_BYTES / 1024} KiB of headers.`,
        ),
        requestId,
      ),
    )
    socket.end(
      'HTTP/1.1 431 Request Header Fields Too Large\r\n' +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    )
  })
}

/** How long a port in use is tried again: a server stopped or killed a moment ago may still hold it. */
const PORT_RETRY_MS = 10_000
/** Requests in flight when a stop is asked for get this long to finish; then their connections are closed. */
const REQUEST_GRACE_MS = 5_000

/**
 * Listens on HOST and PORT (PORT=0 picks a port) before the app exists: a request meanwhile waits
 * for `app`. The node-server bindings (the socket) go on to the app: the client address is read
 * from them. Resolves with the server and its base URL.
 */
export async function listenForApp(config: NodeConfig, app: Promise<Fetch>): Promise<{ server: Server; base: string }> {
  const server = createAdaptorServer({
    fetch: async (req, env) => (await app)(req, env),
    hostname: config.HOST,
    serverOptions: { maxHeaderSize: MAX_HEADER_BYTES },
  }) as Server
  answerOversizedHeaders(server)
  await listenWithRetry(server, {
    port: config.PORT,
    host: config.HOST,
    retryMs: PORT_RETRY_MS,
    onRetry: (message) => console.error(message),
  })
  return { server, base: baseUrl(server.address() as AddressInfo) }
}

/** Stops listening at once, lets the requests in flight finish (up to REQUEST_GRACE_MS), and resolves once all are done. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), REQUEST_GRACE_MS)
    server.close(() => {
      clearTimeout(cut)
      resolve()
    })
    server.closeIdleConnections()
  })
}
