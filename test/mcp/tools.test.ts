import { sandboxBoards } from '../../src/networks/sandbox/boards'
/**
 * The tools of `/mcp` driven as an agent drives them (the SDK's client over real HTTP, each
 * structured answer checked against the tool's output schema by the client): a sandbox workspace
 * from media to permalinks, the dry run, queue slots, analytics and best times, and the error
 * results of user mistakes, which carry the API's codes and never leak another workspace.
 */
import { writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { RULES } from '../../src/domain/rules/index'
import { addSandboxAccount } from '../../src/services/accounts/accounts'
import { scoredPost, weekly, writeHistory } from '../support/analytics-history'
import { runDue } from '../support/engine'
import { file, startSource } from '../support/file-server'
import { account, fixedClock, media } from '../support/fixtures'
import { mcpSession, serveApp } from '../support/mcp'
import { jpeg, paint } from '../support/media'
import { waitForRoomInCurrentMinute } from '../support/minute'
import { createTestApp } from '../support/test-app'

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString()

describe('MCP tools over the same services as /v1', () => {
  it('connect_account hands out a connect link as POST /v1/accounts/connect does, with the same refusals', async () => {
    const t = await createTestApp()
    const base = await serveApp(t)
    const session = await mcpSession(t, base)
    const link = await session.ok('connect_account', { platform: 'PHOTO_NET', connection: 'SANDBOX' })
    // On PUBLIC_URL, as the REST operation's links are.
    const publicUrl = t.deps.settings.publicUrl ?? base
    expect(link.url).toMatch(new RegExp(`^${publicUrl}/connect/[A-Za-z0-9]{43}$`))
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(29 * 60_000)
    const page = await fetch(`${base}${new URL(link.url).pathname}`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Continue to PHOTO_NET')

    const missing = await session.refused('connect_account', { platform: 'MICROBLOG_NET' })
    expect(missing.code).toBe('invalid_option')
    expect(missing.message).toContain('MICROBLOG_NET_CLIENT_ID')
    const rest = await t.call('POST', '/v1/accounts/connect', { body: { platform: 'MICROBLOG_NET' } })
    expect(rest.status).toBe(422)
    expect((await rest.json()).error).toMatchObject({ code: missing.code, message: missing.message })
    const redirect = await session.refused('connect_account', {
      platform: 'PHOTO_NET',
      connection: 'SANDBOX',
      redirectUrl: 'https://elsewhere.example/cb',
    })
    expect(redirect.code).toBe('invalid_option')
  })

  it('takes a sandbox workspace from media to published permalinks', async () => {
    const t = await createTestApp()
    const session = await mcpSession(t, await serveApp(t))
    const micro = await account(t, 'MICROBLOG_NET')
    const photo = await account(t, 'PHOTO_NET')
    const source = await startSource({
      '/beach.jpg': file(await jpeg(paint(1200, 900, (x, y) => [x % 256, y % 256, 90])), 'image/jpeg'),
    })

    const workspace = await session.ok('get_workspace')
    expect(workspace).toMatchObject({ workspaceId: t.workspaceId, usage: { postsThisMonth: 0 } })
    const { accounts } = await session.ok('list_accounts')
    expect(accounts.map((a: { id: string }) => a.id)).toEqual([micro.id, photo.id])
    expect(await session.ok('get_account', { id: photo.id })).toMatchObject({ platform: 'PHOTO_NET', status: 'ACTIVE' })
    const limits = await session.ok('platform_limits', { platforms: ['MICROBLOG_NET', 'PHOTO_NET'] })
    expect(Object.keys(limits.platforms).sort()).toEqual(['MICROBLOG_NET', 'PHOTO_NET'])
    expect(limits.platforms.MICROBLOG_NET).toEqual(RULES.MICROBLOG_NET)

    const asset = await session.ok('upload_media_from_url', {
      sourceUrl: `${source.url}/beach.jpg`,
      altText: 'A beach',
    })
    expect(asset).toMatchObject({ type: 'IMAGE', width: 1200, height: 900, altText: 'A beach' })
    const { variants } = await session.ok('create_variants', { id: asset.id, formats: ['feed_square'] })
    expect(variants).toMatchObject([{ format: 'feed_square', width: 1080, height: 1080 }])
    const square = variants[0].id
    const described = await session.ok('edit_media', { id: asset.id, altText: 'A quiet beach at noon' })
    expect(described.altText).toBe('A quiet beach at noon')
    expect(
      (await session.ok('list_media', { limit: 10 })).data.find((m: { id: string }) => m.id === square).altText,
    ).toBe('A quiet beach at noon')

    const post = {
      type: 'IMAGE',
      accountIds: [micro.id, photo.id],
      mediaIds: [square],
      action: 'draft',
      caption: 'Summer is here',
    }
    const preview = await session.ok('preview_post', post)
    expect(preview).toMatchObject({ valid: true, errors: [] })
    expect(preview.targets.map((p: { platform: string }) => p.platform)).toEqual(['MICROBLOG_NET', 'PHOTO_NET'])

    const draft = await session.ok('create_post', { ...post, mediaIds: [] })
    expect(draft).toMatchObject({ status: 'DRAFT', mediaIds: [], warnings: [] })
    const attached = await session.ok('attach_media', { postId: draft.id, mediaIds: [square] })
    expect(attached).toMatchObject({ status: 'DRAFT', mediaIds: [square] })
    const scheduledAt = inAnHour()
    const scheduled = await session.ok('schedule_post', { id: draft.id, scheduledAt })
    expect(scheduled).toMatchObject({ status: 'SCHEDULED', scheduledAt })
    const publishing = await session.ok('publish_post', { id: draft.id })
    expect(publishing.status).toBe('PUBLISHING')

    expect(await runDue(t, t.publishQueue)).toEqual(['published', 'published'])
    const published = await session.ok('get_post', { id: draft.id })
    expect(published.status).toBe('PUBLISHED')
    for (const target of published.targets) {
      expect(target).toMatchObject({ status: 'PUBLISHED', error: null })
      const page = await t.app.request(new URL(target.permalink).pathname)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('Summer is here')
    }
    const listed = await session.ok('list_posts', { status: 'PUBLISHED' })
    expect(listed).toMatchObject({ total: 1, hasMore: false, data: [{ id: draft.id }] })
    expect((await session.ok('list_media', { limit: 10 })).data.map((m: { id: string }) => m.id).sort()).toEqual(
      [asset.id, square].sort(),
    )

    // Taking it down: the microblog network deletes, the photo network has no delete endpoint and keeps it.
    const removal = await session.ok('delete_post_from_networks', { id: draft.id })
    expect(removal.targets.map((x: { platform: string; outcome: string }) => [x.platform, x.outcome])).toEqual([
      ['MICROBLOG_NET', 'deleted'],
      ['PHOTO_NET', 'not_supported'],
    ])
    expect(removal.deleted).toBe(true)
    const pageOf = (platform: string) => {
      const target = published.targets.find((x: { platform: string }) => x.platform === platform)
      return t.app.request(new URL(target.permalink).pathname)
    }
    expect((await pageOf('MICROBLOG_NET')).status).toBe(404)
    expect((await pageOf('PHOTO_NET')).status).toBe(200)
    expect((await session.refused('get_post', { id: draft.id })).code).toBe('not_found')
    if (process.env.MCP_TRANSCRIPT) await writeFile(process.env.MCP_TRANSCRIPT, JSON.stringify(session.transcript))
  })

  it('covers the rest: a local file uploaded and registered, boards, an edit, a failed target retried', async () => {
    const t = await createTestApp()
    const session = await mcpSession(t, await serveApp(t))
    const bytes = await jpeg(paint(640, 800, (x, y) => [x % 256, 120, y % 256]))
    const ticket = await session.ok('create_media_upload', {
      filename: 'Portrait.JPG',
      contentType: 'image/jpeg',
      sizeBytes: bytes.byteLength,
    })
    const put = await fetch(ticket.uploadUrl, {
      method: 'PUT',
      headers: ticket.headers,
      body: new Blob([bytes.slice()]),
    })
    expect(put.status).toBe(200)
    const asset = await session.ok('register_media', { type: 'IMAGE', storageKey: ticket.storageKey, url: ticket.url })
    expect(asset).toMatchObject({ width: 640, height: 800, sizeBytes: bytes.byteLength, mimeType: 'image/jpeg' })
    expect(
      (await session.ok('register_media', { type: 'IMAGE', storageKey: ticket.storageKey, url: ticket.url })).id,
    ).toBe(asset.id)

    const pinboard = await account(t, 'PINBOARD_NET')
    const { boards } = await session.ok('list_boards', { id: pinboard.id })
    expect(boards.map((b: { name: string }) => b.name)).toEqual(['Inspiration', 'Recipes', 'Travel'])
    const micro = await account(t, 'MICROBLOG_NET')
    expect((await session.refused('list_boards', { id: micro.id })).code).toBe('invalid_option')
    const { destinations } = await session.ok('list_destinations', { id: pinboard.id })
    expect(destinations).toEqual(sandboxBoards(pinboard.id).map((b) => ({ id: b.id, name: b.name, description: null })))
    expect((await session.refused('list_destinations', { id: micro.id })).code).toBe('invalid_option')

    const flaky = await addSandboxAccount(t.deps.db, t.deps.cipher, {
      workspaceId: t.workspaceId,
      platform: 'CHAT_NET',
      username: 'flaky',
      failMode: 'once',
    })
    const draft = await session.ok('create_post', {
      type: 'IMAGE',
      accountIds: [micro.id],
      mediaIds: [],
      action: 'draft',
      caption: 'First words',
      capton: 'a typo',
    })
    expect(draft.warnings).toMatchObject([{ code: 'unknown_field', path: 'capton' }])
    const edited = await session.ok('update_post', {
      id: draft.id,
      changes: { caption: 'Better words', accountIds: [micro.id, flaky.id], mediaIds: [asset.id], action: 'now' },
    })
    expect(edited).toMatchObject({ status: 'PUBLISHING', caption: 'Better words', mediaIds: [asset.id] })
    await runDue(t, t.publishQueue)
    const failed = await session.ok('get_post', { id: draft.id })
    expect(failed.status).toBe('FAILED')
    const byAccount = Object.fromEntries(failed.targets.map((x: { accountId: string }) => [x.accountId, x]))
    expect(byAccount[micro.id].status).toBe('PUBLISHED')
    expect(byAccount[flaky.id]).toMatchObject({ status: 'FAILED', error: { retryable: true } })
    expect((await session.ok('retry_post', { id: draft.id })).status).toBe('PUBLISHING')
    await runDue(t, t.publishQueue)
    const published = await session.ok('get_post', { id: draft.id })
    expect(published.status).toBe('PUBLISHED')
    expect(published.targets.every((x: { permalink: string | null }) => x.permalink !== null)).toBe(true)
  })

  it('previews a caption over budget: the error per target, and nothing is written', async () => {
    const t = await createTestApp()
    const session = await mcpSession(t, await serveApp(t))
    const micro = await account(t, 'MICROBLOG_NET')
    const federated = await account(t, 'FEDERATED_NET')
    const body = {
      type: 'IMAGE',
      accountIds: [micro.id, federated.id],
      mediaIds: [],
      action: 'schedule',
      scheduledAt: inAnHour(),
      caption: 'word '.repeat(80).trim(),
    }
    const preview = await session.ok('preview_post', body)
    expect(preview.valid).toBe(false)
    const byPlatform = Object.fromEntries(preview.targets.map((p: { platform: string }) => [p.platform, p]))
    expect(byPlatform.MICROBLOG_NET).toMatchObject({ captionLength: 399, captionLimit: 280 })
    expect(byPlatform.MICROBLOG_NET.errors).toMatchObject([{ code: 'caption_too_long', limit: 280, actual: 399 }])
    expect(byPlatform.FEDERATED_NET.errors).toEqual([])
    expect(await session.ok('list_posts', {})).toMatchObject({ total: 0, data: [] })
    expect((await session.ok('get_workspace')).usage.postsThisMonth).toBe(0)

    // create_post refuses it the same way, as a tool error with the API's code and details.
    const refused = await session.refused('create_post', body)
    expect(refused).toMatchObject({ code: 'caption_too_long', details: [{ platform: 'MICROBLOG_NET', limit: 280 }] })
    // The fix the preview points at: an override for the strict network.
    const fixed = { ...body, captionOverrides: { MICROBLOG_NET: 'word '.repeat(50).trim() } }
    expect((await session.ok('preview_post', fixed)).valid).toBe(true)
    expect((await session.ok('create_post', fixed)).status).toBe('SCHEDULED')
    if (process.env.MCP_TRANSCRIPT)
      await writeFile(`${process.env.MCP_TRANSCRIPT}.preview.json`, JSON.stringify(session.transcript))
  })

  it('queues into the weekly slots and reports nextFreeSlot', async () => {
    const t = await createTestApp({ timezone: 'Europe/Berlin' })
    const session = await mcpSession(t, await serveApp(t))
    const micro = await account(t, 'MICROBLOG_NET')
    expect(await session.ok('get_queue_slots')).toMatchObject({ slots: [], nextFreeSlot: null })
    const queue = { type: 'IMAGE', accountIds: [micro.id], mediaIds: [], action: 'queue', caption: 'Queued' }
    expect((await session.refused('create_post', queue)).code).toBe('queue_not_configured')
    const set = await session.ok('set_queue_slots', { slots: [{ weekday: 2, time: '09:30' }] })
    expect(set.slots).toMatchObject([{ weekday: 2, time: '09:30' }])
    const next = set.nextFreeSlot
    expect(next).not.toBeNull()
    const queued = await session.ok('create_post', queue)
    expect(queued).toMatchObject({ status: 'SCHEDULED', queued: true })
    expect(new Date(queued.scheduledAt).getTime()).toBe(new Date(next).getTime())
    const after = await session.ok('get_queue_slots')
    expect(new Date(after.nextFreeSlot).getTime()).toBe(new Date(next).getTime() + 7 * 24 * 3_600_000)
    // Media attached later keeps the post scheduled at its time (an edit without an action would make it a draft).
    const image = await media(t)
    const attached = await session.ok('attach_media', { postId: queued.id, mediaIds: [image] })
    expect(attached).toMatchObject({ status: 'SCHEDULED', mediaIds: [image], scheduledAt: queued.scheduledAt })
  })

  it('reads analytics and best times from the workspace history', async () => {
    const t = await createTestApp({ clock: fixedClock('2026-05-15T12:00:00.000Z') })
    const session = await mcpSession(t, await serveApp(t))
    const micro = await account(t, 'MICROBLOG_NET')
    await writeHistory(t, [
      ...weekly('2026-05-05T18:00:00Z', 20).map((d) => scoredPost(micro, d, 200)), // Tuesdays 18:00
      ...weekly('2026-05-04T09:00:00Z', 20).map((d) => scoredPost(micro, d, 100)), // Mondays 09:00
    ])
    const best = await session.ok('best_times')
    expect(best).toMatchObject({ insufficient: false, reason: 'ok', observations: 40, timezone: 'UTC' })
    expect(best.slots[0]).toMatchObject({ weekday: 2, minutes: 18 * 60, samples: 20 })
    expect(best.byPlatform.map((p: { platform: string }) => p.platform)).toEqual(['MICROBLOG_NET'])
    expect(best.grid).toBeUndefined()
    expect((await session.ok('best_times', { detail: true })).grid[2][18]).toBe(best.slots[0].score)
    const analytics = await session.ok('get_analytics')
    expect(analytics.accounts).toMatchObject([
      { accountId: micro.id, platform: 'MICROBLOG_NET', posts: { count: 6, engagement: 3 * 200 + 3 * 100 } },
    ])
    expect(analytics.topPosts[0]).toMatchObject({ accountId: micro.id, engagement: 200, metrics: { likes: 160 } })
    expect(analytics.postCount).toBe(6)
    expect(analytics.accounts[0].series).toBeUndefined()
    const detailed = await session.ok('get_analytics', { detail: 'all' })
    expect(detailed.accounts[0].series).toHaveLength(30)
    expect(detailed.recentPosts).toHaveLength(6)
  })

  it('answers user mistakes as error results with the API code, and never sees another workspace', async () => {
    const t = await createTestApp({ plan: 'free' })
    const other = await createTestApp()
    const session = await mcpSession(t, await serveApp(t))
    const mine = await account(t, 'MICROBLOG_NET')
    const theirs = await account(other, 'MICROBLOG_NET')
    const theirPost = await (
      await other.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', accountIds: [theirs.id], mediaIds: [], action: 'draft', caption: 'Theirs' },
      })
    ).json()
    const theirMedia = await media(other)

    const bad = await session.refused('create_post', { type: 'IMAGE', accountIds: [], action: 'later' })
    expect(bad.code).toBe('invalid_request')
    expect(bad.details!.map((d) => d.path).sort()).toEqual(['accountIds', 'action', 'mediaIds'])
    expect((await session.refused('get_post', { id: 42 })).code).toBe('invalid_request')
    const nul = await session.refused('create_post', {
      type: 'IMAGE',
      accountIds: [mine.id],
      mediaIds: [],
      action: 'draft',
      caption: 'a\u0000b',
    })
    expect(nul).toMatchObject({ code: 'invalid_request', details: [{ path: 'caption' }] })

    for (const tool of ['get_post', 'publish_post', 'retry_post', 'delete_post', 'delete_post_from_networks']) {
      expect(await session.refused(tool, { id: theirPost.id }), tool).toMatchObject({ code: 'not_found' })
    }
    expect((await session.refused('get_account', { id: theirs.id })).code).toBe('not_found')
    expect((await session.refused('create_variants', { id: theirMedia, formats: ['story'] })).code).toBe('not_found')
    const withTheirMedia = { type: 'IMAGE', accountIds: [mine.id], mediaIds: [theirMedia], action: 'draft' }
    expect((await session.refused('create_post', withTheirMedia)).code).toBe('media_not_found')
    const foreign = { type: 'IMAGE', accountIds: [theirs.id], mediaIds: [], action: 'draft', caption: 'x' }
    expect((await session.refused('create_post', foreign)).code).toBe('account_not_found')
    expect((await session.ok('preview_post', foreign)).errors).toMatchObject([{ code: 'account_not_found' }])
    expect((await other.call('GET', `/v1/posts/${theirPost.id}`)).status).toBe(200)

    const draft = await session.ok('create_post', { ...foreign, accountIds: [mine.id] })
    expect((await session.refused('retry_post', { id: draft.id })).code).toBe('nothing_to_retry')
    const past = await session.refused('schedule_post', { id: draft.id, scheduledAt: '2020-01-01T00:00:00Z' })
    expect(past.code).toBe('schedule_time_in_past')
    await session.ok('publish_post', { id: draft.id })
    const locked = await session.refused('update_post', { id: draft.id, changes: { caption: 'changed' } })
    expect(locked.code).toBe('post_not_editable')

    // The free plan allows 30 posts a month: the 31st is a plan-limit error result.
    await writeHistory(
      t,
      weekly('2026-01-06T18:00:00Z', 29).map((d) => scoredPost(mine, d, 1)),
    )
    const limited = await session.refused('create_post', { ...foreign, accountIds: [mine.id] })
    expect(limited.code).toBe('plan_limit_reached')
    expect((await session.ok('delete_post', { id: draft.id })).deleted).toBe(true)
    expect((await session.refused('get_post', { id: draft.id })).code).toBe('not_found')
  })

  it('counts create_media_upload against the uploads limit of POST /v1/media/uploads', async () => {
    // On Upstash the window is the real clock's minute: the two counted calls must fall in one.
    await waitForRoomInCurrentMinute(10_000, { onlyWithRedis: true })
    const t = await createTestApp({ clock: fixedClock('2026-05-15T12:00:00.000Z') })
    const session = await mcpSession(t, await serveApp(t))
    const ticket = await session.ok('create_media_upload', { filename: 'Launch.JPG', contentType: 'image/jpeg' })
    expect(ticket.storageKey.startsWith(`${t.workspaceId}/`)).toBe(true)
    const res = await t.call('POST', '/v1/media/uploads', { body: { filename: 'b.jpg', contentType: 'image/jpeg' } })
    expect(res.headers.get('RateLimit-Limit')).toBe('60')
    expect(res.headers.get('RateLimit-Remaining')).toBe('58')
    expect(
      (await session.refused('register_media', { type: 'IMAGE', storageKey: ticket.storageKey, url: ticket.url })).code,
    ).toBe('media_not_found')
  })
})
