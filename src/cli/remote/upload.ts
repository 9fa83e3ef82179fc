import { createReadStream } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { Transform } from 'node:stream'
import { CliError } from '../args'
import { EXIT, exitCodeOfStatus } from '../exit-codes'
import { unreachable } from './client'

/**
 * PUTs a file to a presigned URL with the headers it was signed with and its exact length (a
 * presigned PUT refuses chunked bodies), reporting bytes sent as they go.
 */
export function putFile(options: {
  url: string
  file: string
  size: number
  headers: Record<string, string>
  onProgress?: (sent: number) => void
}): Promise<void> {
  const target = new URL(options.url)
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    let sent = 0
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sent += chunk.length
        options.onProgress?.(sent)
        done(null, chunk)
      },
    })
    const req = send(
      target,
      { method: 'PUT', headers: { ...options.headers, 'content-length': String(options.size) }, timeout: 120_000 },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (d: string) => (text += d))
        res.on('end', () => {
          const status = res.statusCode ?? 0
          if (status >= 200 && status < 300) return resolve()
          reject(
            new CliError(
              `the store refused the upload (${status})${text ? `: ${text.slice(0, 300)}` : ''}`,
              status === 403 ? EXIT.REFUSED : exitCodeOfStatus(status),
            ),
          )
        })
      },
    )
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })))
    req.on('error', (err) => reject(err instanceof CliError ? err : unreachable(target.origin, err)))
    const file = createReadStream(options.file)
    file.on('error', (err) => {
      req.destroy()
      reject(new CliError(`cannot read ${options.file}: ${err.message}`))
    })
    file.pipe(counter).pipe(req)
  })
}

/** `[#####-----]  42%  1.2 MB / 2.9 MB` for a progress line. */
export function progressBar(sent: number, total: number, width = 30): string {
  const ratio = total === 0 ? 1 : Math.min(1, sent / total)
  const filled = Math.round(ratio * width)
  const mb = (n: number) => `${(n / 1_048_576).toFixed(1)} MB`
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}%  ${mb(sent)} / ${mb(total)}`
}
