/**
 * `POST /mcp` of the started product through the MCP SDK's own client, configured as the README
 * tells an agent's developer: the tools listed, an image uploaded and cut into variants by tool
 * calls, and a refusal carrying the API's error body.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { jpeg, paint } from '../support/media'
import { clientAddress, loggedErrors } from './support/product'

const product = inject('product')
const client = new Client({ name: 'e2e-agent', version: '1.0.0' })

afterAll(() => client.close())

/** Calls a tool that must succeed; answers its structuredContent. */
async function ok(name: string, args: Record<string, unknown>): Promise<any> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  const text = result.content[0]?.type === 'text' ? result.content[0].text : ''
  expect(result.isError ?? false, text).toBe(false)
  return result.structuredContent
}

describe('npm start, to an MCP client', () => {
  it('connects as the README shows, and lists its tools with their schemas', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${product.baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${product.token}`, 'X-Forwarded-For': clientAddress() } },
    })
    await client.connect(transport)
    const { tools } = await client.listTools()
    const names = tools.map((t) => t.name)
    expect(names).toEqual(
      expect.arrayContaining([
        'get_workspace',
        'create_post',
        'create_media_upload',
        'register_media',
        'create_variants',
      ]),
    )
    expect(tools.find((t) => t.name === 'create_variants')?.inputSchema.required).toEqual(['id', 'formats'])
    expect(tools.find((t) => t.name === 'best_times')?.outputSchema).toBeTruthy()
    expect(await ok('get_workspace', {})).toMatchObject({ plan: { id: 'agency' } })
  })

  it('uploads an image and cuts its variants with tool calls', async () => {
    const ticket = await ok('create_media_upload', { filename: 'agent.jpg', contentType: 'image/jpeg' })
    const bytes = await jpeg(paint(640, 640, (x, y) => [200, x % 256, y % 256]))
    const put = await fetch(ticket.uploadUrl, {
      method: 'PUT',
      headers: ticket.headers,
      body: new Blob([bytes.slice()]),
    })
    expect(put.status).toBe(200)
    const asset = await ok('register_media', { type: 'IMAGE', storageKey: ticket.storageKey, url: ticket.url })
    const cut = await ok('create_variants', { id: asset.id, formats: ['feed_portrait', 'landscape'] })
    expect(
      cut.variants.map((v: { format: string; width: number; height: number }) => [v.format, v.width, v.height]),
    ).toEqual([
      ['feed_portrait', 1080, 1350],
      ['landscape', 1080, 566],
    ])
    expect((await fetch(cut.variants[0].url)).headers.get('content-type')).toBe('image/jpeg')
  })

  it("refuses an unknown image with the API's error body", async () => {
    const result = (await client.callTool({
      name: 'create_variants',
      arguments: { id: 'med_doesnotexist', formats: ['story'] },
    })) as CallToolResult
    expect(result.isError).toBe(true)
    const text = result.content[0]?.type === 'text' ? result.content[0].text : ''
    expect(JSON.parse(text).error.code).toBe('not_found')
  })

  it('logged no error meanwhile', () => {
    expect(loggedErrors(product.logFile)).toEqual([])
  })
})
