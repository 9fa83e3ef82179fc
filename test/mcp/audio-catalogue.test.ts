/**
 * The photo network's audio catalogue through `list_audio` (MCP SDK client) and
 * `GET /v1/platforms/{platform}/audio`, against the loopback photo network on its Facebook-login
 * host: tracks read with the account's token, a search, the cursor paging, the id taken as a
 * reel's `audio.audioId`; the empty list and its reason for a direct-login account or none;
 * another workspace's account is not found; the network's refusals in the contract's words.
 */
import { describe, expect, it } from 'vitest'
import { PHOTO_AUDIO, startPhotoFake } from '../fakes/photo'
import { media, realAccount } from '../support/fixtures'
import { mcpSession, serveApp } from '../support/mcp'
import { createTestApp } from '../support/test-app'

async function setup() {
  const fake = await startPhotoFake({ host: 'facebook', token: 'EAAaudio' })
  const t = await createTestApp({ networks: { origins: { PHOTO_NET_API_URL: fake.url } } })
  const photo = await realAccount(
    t,
    'PHOTO_NET',
    'SOCIALGRAPH_LOGIN',
    { accessToken: 'EAAaudio', igUserId: fake.igUserId },
    fake.igUserId,
  )
  return { fake, t, photo, session: await mcpSession(t, await serveApp(t)) }
}

const music = PHOTO_AUDIO.filter((a) => a.audio_type === 'music')

describe('list_audio with a photo-network account', () => {
  it("pages through the account's catalogue, narrows it with a search, and the id goes into a reel", async () => {
    const { fake, t, photo, session } = await setup()
    const first = await session.ok('list_audio', { platform: 'PHOTO_NET', accountId: photo.id })
    expect(first).toMatchObject({ platform: 'PHOTO_NET', formats: ['REEL'] })
    expect(first.audio).toEqual([
      { id: music[0]!.audio_id, title: 'Morning Loaf', artist: 'The Crumbs', durationSec: 30 },
      { id: music[1]!.audio_id, title: 'Harbour Lights', artist: 'Quay', durationSec: 45.5 },
    ])
    expect(first.reason).toContain('trending')
    expect(fake.state.audioQueries[0]).toMatchObject({ audio_type: 'music', user_id: fake.igUserId })

    const ids: string[] = first.audio.map((a: { id: string }) => a.id)
    let cursor = first.nextCursor
    while (cursor) {
      const page = await session.ok('list_audio', { platform: 'PHOTO_NET', accountId: photo.id, cursor })
      ids.push(...page.audio.map((a: { id: string }) => a.id))
      cursor = page.nextCursor
    }
    expect(ids).toEqual(music.map((a) => a.audio_id))

    const crumbs = await t.call('GET', `/v1/platforms/PHOTO_NET/audio?accountId=${photo.id}&query=crumbs`)
    expect(crumbs.status).toBe(200)
    const found = await crumbs.json()
    expect(found.audio.map((a: { title: string }) => a.title)).toEqual(['Morning Loaf', 'Sourdough Sunrise'])
    expect(found).toMatchObject({ nextCursor: null, reason: expect.stringContaining('"crumbs"') })
    expect(fake.state.audioQueries.at(-1)).toMatchObject({ search_query: 'crumbs' })

    const sounds = await session.ok('list_audio', {
      platform: 'PHOTO_NET',
      accountId: photo.id,
      kind: 'original_sound',
    })
    expect(sounds.audio).toEqual([
      { id: '1780000000000201', title: 'Original audio', artist: 'bakerbob', durationSec: null },
    ])

    const reel = {
      type: 'REEL',
      accountIds: [photo.id],
      mediaIds: [await media(t, { type: 'VIDEO', width: 1080, height: 1920, durationSec: 20 })],
      action: 'draft',
      caption: 'Fresh out of the oven',
      audio: { audioId: found.audio[0].id, audioVolume: 0.8 },
    }
    const preview = await session.ok('preview_post', reel)
    expect(preview.targets[0].errors).toEqual([])
    expect(preview.valid).toBe(true)
    expect((await session.ok('create_post', reel)).audio).toMatchObject({ audioId: found.audio[0].id })
  })

  it('answers the empty list and why for a direct-login account, no account or another platform', async () => {
    const { t, session } = await setup()
    const direct = await realAccount(t, 'PHOTO_NET', 'DIRECT_LOGIN', { accessToken: 'ig-direct', igUserId: '1784' })
    const empty = await session.ok('list_audio', { platform: 'PHOTO_NET', accountId: direct.id })
    expect(empty).toMatchObject({ audio: [], nextCursor: null })
    expect(empty.reason).toContain(`account ${direct.id} is connected through DIRECT_LOGIN`)
    expect(empty.reason).toContain('SOCIALGRAPH_LOGIN')
    const none = await (await t.call('GET', '/v1/platforms/PHOTO_NET/audio')).json()
    expect(none).toMatchObject({ audio: [], reason: expect.stringContaining('give the accountId') })
    const short = await session.ok('list_audio', { platform: 'SHORTVIDEO_NET' })
    expect(short).toMatchObject({ audio: [], reason: expect.stringContaining('offers no audio catalogue') })
  })

  it("answers not found for another workspace's account, and a wrong platform's account is refused", async () => {
    const { t, photo, session } = await setup()
    const other = await createTestApp()
    const theirs = await realAccount(other, 'PHOTO_NET', 'SOCIALGRAPH_LOGIN', { accessToken: 'x', igUserId: '1' })
    const res = await t.call('GET', `/v1/platforms/PHOTO_NET/audio?accountId=${theirs.id}`)
    expect(res.status).toBe(404)
    expect((await res.json()).error.code).toBe('not_found')
    expect((await session.refused('list_audio', { platform: 'PHOTO_NET', accountId: theirs.id })).code).toBe(
      'not_found',
    )
    const wrong = await session.refused('list_audio', { platform: 'SHORTVIDEO_NET', accountId: photo.id })
    expect(wrong).toMatchObject({ code: 'invalid_option', details: [{ path: 'accountId', platform: 'PHOTO_NET' }] })
  })

  it("turns the network's refusals into the contract's errors", async () => {
    const { fake, t, photo, session } = await setup()
    fake.failNext(/ig_audio/, {
      status: 429,
      headers: { 'retry-after': '120' },
      json: { error: { message: 'Application request limit reached', type: 'OAuthException', code: 4 } },
    })
    const limited = await t.call('GET', `/v1/platforms/PHOTO_NET/audio?accountId=${photo.id}`)
    expect(limited.status).toBe(429)
    expect((await limited.json()).error).toMatchObject({ code: 'rate_limited', retryAfterSec: 120 })

    fake.expireToken()
    const expired = await session.refused('list_audio', { platform: 'PHOTO_NET', accountId: photo.id })
    expect(expired).toMatchObject({ code: 'invalid_option', details: [{ path: 'accountId', platform: 'PHOTO_NET' }] })
    expect(expired.message).toContain('reconnect the account')
    expect(expired.message).not.toContain('EAAaudio')
  })
})
