import { randomUUID } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { basename, extname } from 'node:path'
import { CliError, UsageError } from '../args'
import { defineRemoteCommand } from '../remote/context'
import { fields } from '../remote/format'
import { progressBar, putFile } from '../remote/upload'

/** What a file's extension says it is; the service reads the bytes themselves again on register. */
const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
}

interface Ticket {
  uploadUrl: string
  headers: Record<string, string>
  storageKey: string
  url: string
}

interface Asset {
  id: string
  type: string
  url: string
  mimeType: string
  width: number | null
  height: number | null
  sizeBytes?: number
}

export const mediaUpload = defineRemoteCommand({
  summary: 'Upload a file: a presigned URL, the bytes straight to the store, then the asset registered',
  options: {
    'content-type': {
      type: 'string',
      value: '<mime>',
      description: 'default from the extension (jpg, png, gif, webp, mp4, mov)',
    },
    alt: { type: 'string', value: '<text>', description: 'alt text for the image' },
  },
  positionals: [{ name: 'file', description: 'the file to upload' }],
  examples: ['media upload photo.jpg', 'media upload clip.mp4 --json'],
  run: async (ctx, o) => {
    const contentType = o['content-type'] ?? CONTENT_TYPES[extname(o.file).toLowerCase()]
    if (!contentType) throw new UsageError(`cannot tell the type of ${o.file} from its name: give --content-type`)
    const info = await stat(o.file).catch(() => null)
    if (!info?.isFile()) throw new CliError(`no file ${o.file}`)
    const api = ctx.api()
    const ticket = (
      await api.request('POST', '/v1/media/uploads', {
        body: { filename: basename(o.file), contentType, sizeBytes: info.size },
      })
    ).json as Ticket
    const { terminal } = ctx
    await putFile({
      url: ticket.uploadUrl,
      file: o.file,
      size: info.size,
      headers: ticket.headers,
      ...(terminal.isTTY ? { onProgress: (sent: number) => terminal.progress(progressBar(sent, info.size)) } : {}),
    })
    if (terminal.isTTY) terminal.progress('')
    const res = await api.request('POST', '/v1/media', {
      body: {
        type: contentType.startsWith('video/') ? 'VIDEO' : 'IMAGE',
        storageKey: ticket.storageKey,
        url: ticket.url,
        ...(o.alt !== undefined ? { altText: o.alt } : {}),
      },
      headers: { 'idempotency-key': randomUUID() },
    })
    const asset = res.json as Asset
    return {
      json: res.text,
      text: fields([
        ['id', asset.id],
        ['type', `${asset.type} (${asset.mimeType})`],
        ['size', asset.width && asset.height ? `${asset.width}×${asset.height}` : '-'],
        ['url', asset.url],
      ]),
    }
  },
})
