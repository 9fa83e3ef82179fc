import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TLSSocket } from 'node:tls'

const SSL_REQUEST_CODE = 80877103

export interface TlsPostgresFront {
  port: number
  /** The front's certificate (self-signed, for the host name `pg.test`), as a file for `sslrootcert`. */
  certFile: string
  /** Connections that completed a TLS handshake with the front. */
  handshakes(): number
  close(): Promise<void>
}

/**
 * A PostgreSQL with TLS in front of one without: a listener that accepts the client's SSLRequest,
 * speaks TLS with a fresh self-signed certificate (made by `openssl`, for `pg.test`, not for the
 * address it listens on), and relays what it decrypts to `pgHost:pgPort` in the clear. For testing
 * what each `sslmode` accepts; a client that does not ask for TLS is turned away.
 */
export async function startTlsPostgresFront(options: { pgHost: string; pgPort: number }): Promise<TlsPostgresFront> {
  const dir = mkdtempSync(join(tmpdir(), 'sps-tls-'))
  const certFile = join(dir, 'cert.pem')
  const keyFile = join(dir, 'key.pem')
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-subj', '/CN=pg.test', '-addext', 'subjectAltName=DNS:pg.test', '-days', '1'],
      ...['-keyout', keyFile, '-out', certFile],
    ],
    { stdio: 'ignore' },
  )
  const credentials = { key: readFileSync(keyFile), cert: readFileSync(certFile) }
  const sockets = new Set<net.Socket>()
  let handshakes = 0
  const server = net.createServer((client) => {
    sockets.add(client)
    client.on('close', () => sockets.delete(client))
    client.on('error', () => client.destroy())
    client.once('data', (first: Buffer) => {
      if (first.length !== 8 || first.readInt32BE(4) !== SSL_REQUEST_CODE) return void client.destroy()
      client.write('S')
      const secure = new TLSSocket(client, { isServer: true, ...credentials })
      const upstream = net.connect({ host: options.pgHost, port: options.pgPort })
      sockets.add(upstream)
      const closeBoth = () => {
        secure.destroy()
        upstream.destroy()
      }
      secure.on('secure', () => handshakes++)
      for (const s of [secure, upstream]) s.on('error', closeBoth).on('close', closeBoth)
      secure.pipe(upstream).pipe(secure)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    certFile,
    handshakes: () => handshakes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => {
          rmSync(dir, { recursive: true, force: true })
          resolve()
        })
      }),
  }
}
