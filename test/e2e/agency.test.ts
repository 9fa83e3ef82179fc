/**
 * The agency workflow of the started product, from outside: approval required for the workspace, a
 * group of the demo SANDBOX accounts, a label, a draft refused scheduling until approved, submitted
 * with the intent to schedule, a client review link opened in chromium where a visitor gives a name
 * and approves, the post then scheduled, the approval in the activity log under the review link, a
 * note mentioning the demo user (who finds it among their notifications in the dashboard), and the
 * approval tools over MCP. The workspace's setting is put back afterwards: the other files publish
 * without review.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser } from '../support/chromium'
import { watchedContext } from './support/page-watch'
import { apiClient, clientAddress, loggedErrors } from './support/product'

const product = inject('product')
const address = clientAddress()
const api = apiClient(product.baseUrl, product.token!, address)
const mcp = new Client({ name: 'e2e-agency', version: '1.0.0' })
let browser: Browser | undefined
/** Two demo SANDBOX accounts, the group of them, and the label. */
let accountIds: string[]
let groupId: string
let labelId: string

beforeAll(async () => {
  const listed = await api('GET', '/v1/accounts')
  expect(listed.status).toBe(200)
  const demo = listed.body.filter((a: { username: string }) => a.username.startsWith('demo_'))
  accountIds = ['MICROBLOG_NET', 'CHAT_NET'].map((p) => demo.find((a: { platform: string }) => a.platform === p).id)
  browser = await launchBrowser()
})
afterAll(async () => {
  await api('PATCH', '/v1/workspace', { approvalRequired: false })
  await mcp.close()
})

/** An MCP tool call that must succeed; answers its structuredContent. */
async function tool(name: string, args: Record<string, unknown>): Promise<any> {
  const result = (await mcp.callTool({ name, arguments: args })) as CallToolResult
  const text = result.content[0]?.type === 'text' ? result.content[0].text : ''
  expect(result.isError ?? false, text).toBe(false)
  return result.structuredContent
}

/** A draft to the group's accounts with the label. */
async function draft(caption: string): Promise<string> {
  const created = await api('POST', '/v1/posts', {
    type: 'IMAGE',
    accountIds,
    mediaIds: [],
    action: 'draft',
    caption,
    labelIds: [labelId],
  })
  expect(created.status, JSON.stringify(created.body)).toBe(200)
  expect(created.body).toMatchObject({ status: 'DRAFT', labels: [{ id: labelId, name: 'Spring launch' }] })
  return created.body.id
}

describe('npm start: approval through a client review link', () => {
  it('requires approval, refuses to schedule a draft, and a visitor of the review link approves it', async () => {
    const setting = await api('PATCH', '/v1/workspace', { approvalRequired: true })
    expect(setting.status, JSON.stringify(setting.body)).toBe(200)
    expect(setting.body.approvalRequired).toBe(true)
    const group = await api('POST', '/v1/groups', { name: 'Harbour Cafe', accountIds })
    expect(group.status, JSON.stringify(group.body)).toBe(200)
    groupId = group.body.id
    const label = await api('POST', '/v1/labels', { name: 'Spring launch', color: '#22c55e' })
    expect(label.status, JSON.stringify(label.body)).toBe(200)
    labelId = label.body.id

    const postId = await draft('Spring menu tasting, Saturday at noon')
    const scheduledAt = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 3 * 86_400_000).toISOString()
    const refused = await api('POST', `/v1/posts/${postId}/schedule`, { scheduledAt })
    expect(refused.status).toBe(409)
    expect(refused.body.error.code).toBe('approval_required')
    const submitted = await api('POST', `/v1/posts/${postId}/submit`, {
      action: 'schedule',
      scheduledAt,
      note: 'For the client to check',
    })
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200)
    expect(submitted.body).toMatchObject({ status: 'IN_REVIEW', approval: { state: 'IN_REVIEW' } })

    const link = await api('POST', '/v1/review-links', { groupId, name: 'Harbour Cafe owners', expiresInDays: 7 })
    expect(link.status, JSON.stringify(link.body)).toBe(200)
    expect(link.body.url).toMatch(new RegExp(`^${product.baseUrl}/review/`))

    const watched = await watchedContext(browser!, address)
    const page = await watched.context.newPage()
    await page.goto(link.body.url)
    await page.getByLabel('Your name').fill('Dana Client')
    await page.getByRole('button', { name: 'Show the posts' }).click()
    await page.getByText('Reviewing as').waitFor()
    expect(await page.textContent('main')).toContain('Spring menu tasting')
    await page.getByRole('button', { name: `Approve the post ${postId}` }).click()
    await page.getByText('Approved. The team sees your approval now.').waitFor()
    expect(watched.problems).toEqual([])
    await watched.context.close()

    const post = await api('GET', `/v1/posts/${postId}`)
    expect(post.body).toMatchObject({
      status: 'SCHEDULED',
      scheduledAt,
      approval: { state: 'APPROVED', decidedBy: { kind: 'review_link', name: 'Dana Client (review link)' } },
    })

    const activity = await api('GET', `/v1/activity?actorKind=review_link&subjectId=${postId}`)
    expect(activity.status, JSON.stringify(activity.body)).toBe(200)
    expect(activity.body.data.map((e: any) => [e.action, e.actor.id, e.actor.name, e.ip])).toEqual([
      ['post.approved', link.body.id, 'Dana Client (review link)', address],
    ])
    const groups = await api('GET', `/v1/activity?subjectId=${groupId}`)
    expect(groups.body.data.map((e: { action: string }) => e.action)).toEqual(['group.created'])

    // A note on the post mentioning the demo user.
    const members = await api('GET', '/v1/members')
    expect(members.status, JSON.stringify(members.body)).toBe(200)
    const demoUser = members.body.data.find((m: { email: string }) => m.email === product.email).userId
    const note = await api('POST', `/v1/posts/${postId}/notes`, {
      body: 'Approved by the client; photos on Friday.',
      mentions: [demoUser],
    })
    expect(note.status, JSON.stringify(note.body)).toBe(200)
    expect(note.body).toMatchObject({ postId, mentions: [demoUser], author: { kind: 'token' } })
    const notes = await api('GET', `/v1/posts/${postId}/notes`)
    expect(notes.body.data.map((n: { id: string }) => n.id)).toEqual([note.body.id])

    // The demo user, signed in to the dashboard, has the mention among their notifications.
    const member = await watchedContext(browser!, address)
    const dashboard = await member.context.newPage()
    await dashboard.goto(`${product.baseUrl}/app/sign-in`)
    await dashboard.getByLabel('Email').fill(product.email!)
    await dashboard.getByLabel('Password').fill(product.password!)
    await dashboard.getByRole('button', { name: 'Sign in' }).click()
    await dashboard.waitForURL(/\/app\/w\/ws_[0-9A-Za-z]+/)
    const workspace = /^(.*\/app\/w\/ws_[0-9A-Za-z]+)/.exec(dashboard.url())![1]!
    await dashboard.goto(`${workspace}/notifications`)
    expect(await dashboard.textContent('main')).toContain('mentioned you in a note')
    expect(member.problems).toEqual([])
    await member.context.close()
  })

  it('submits and approves a post with the MCP tools', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${product.baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${product.token}`, 'X-Forwarded-For': address } },
    })
    await mcp.connect(transport)
    const names = (await mcp.listTools()).tools.map((t) => t.name)
    expect(names).toEqual(expect.arrayContaining(['submit_post', 'approve_post', 'request_post_changes']))
    const postId = await draft('Terrace opening, next week')
    expect(await tool('submit_post', { id: postId })).toMatchObject({ status: 'IN_REVIEW' })
    const approved = await tool('approve_post', { id: postId, comment: 'Good to go' })
    expect(approved).toMatchObject({ status: 'APPROVED', approval: { comment: 'Good to go' } })
  })

  it('logged no error meanwhile', () => {
    expect(loggedErrors(product.logFile)).toEqual([])
  })
})
