import { describe, expect, it } from 'vitest'
import { account } from '../../support/fixtures'
import { mountContentPages, type PagesApp } from '../../support/dashboard-pages'

/** The messages listed beside a form control (`<ul id="errors-{field}">`). */
function errorsBeside(html: string, field: string): string {
  const found = new RegExp(`<ul[^>]*id="errors-${field}"[^>]*>(.*?)</ul>`, 's').exec(html)
  if (!found) throw new Error(`no error list for ${field}`)
  return found[1]!
}

async function storedPosts(p: PagesApp) {
  return (await p.t.call('GET', '/v1/posts')).json()
}

describe('composer', () => {
  it('shows every account with its network, the counters and the options of the networks', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET', 'micro <b>one</b>')
    await account(p.t, 'PINBOARD_NET')
    const res = await p.get('/compose')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain(`value="${micro.id}"`)
    expect(html).toContain('micro &lt;b&gt;one&lt;/b&gt;')
    expect(html).toContain('id="count-MICROBLOG_NET"')
    expect(html).toContain('<label for="override-PINBOARD_NET">')
    expect(html).toContain('name="threadParts"')
    expect(html).toContain('name="pinTitle"')
    expect(html).toMatch(/src="\/app\/assets\/composer\.[0-9a-f]{12}\.js"/)
    expect(html).not.toMatch(/ on[a-z]+=|style=/)
  })

  it("offers a pinboard account's boards by name, as its network lists them, and stores the one chosen", async () => {
    const p = await mountContentPages()
    const pins = await account(p.t, 'PINBOARD_NET', 'pin-studio')
    const listed = (await (await p.t.call('GET', `/v1/accounts/${pins.id}/boards`)).json()).boards as {
      id: string
      name: string
    }[]
    expect(listed.length).toBeGreaterThan(1)
    const html = await (await p.get('/compose')).text()
    const select = new RegExp(`<select name="board.${pins.id}"[^>]*>(.*?)</select>`, 's').exec(html)?.[1] ?? ''
    for (const board of listed) expect(select).toContain(`<option value="${board.id}">${board.name} (`)
    expect(html).toContain(`<label for="board-${pins.id}">Board for pin-studio</label>`)

    const chosen = listed[1]!
    const res = await p.post('/compose', {
      accountIds: [pins.id],
      type: 'IMAGE',
      caption: 'On the board',
      [`board.${pins.id}`]: chosen.id,
      action: 'draft',
    })
    expect(res.status).toBe(303)
    const [post] = await storedPosts(p)
    expect(post.pinboardNetBoards).toEqual({ [pins.id]: chosen.id })
    const edit = await (await p.get(`/posts/${post.id}/edit`)).text()
    expect(edit).toContain(`<option value="${chosen.id}" selected="">`)
  })

  it('saves a draft to several accounts with an override: the post is stored with those targets', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET')
    const pro = await account(p.t, 'PROFESSIONAL_NET')
    const threads = await account(p.t, 'TEXTTHREAD_NET')
    const res = await p.post('/compose', {
      accountIds: [micro.id, pro.id, threads.id],
      type: 'IMAGE',
      caption: 'Launch day',
      'override.MICROBLOG_NET': 'Launch day, short',
      threadParts: 'Part two\n---\nPart three',
      action: 'draft',
    })
    expect(res.status).toBe(303)
    const [post] = await storedPosts(p)
    expect(res.headers.get('location')).toBe(p.page(`/posts/${post.id}`))
    expect(post.status).toBe('DRAFT')
    expect(post.targets.map((t: { accountId: string }) => t.accountId).sort()).toEqual(
      [micro.id, pro.id, threads.id].sort(),
    )
    expect(post.captionOverrides).toEqual({ MICROBLOG_NET: 'Launch day, short' })
    expect(post.threadParts).toEqual(['Part two', 'Part three'])
  })

  it('shows a refused caption next to the override it concerns and stores nothing', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET')
    const pro = await account(p.t, 'PROFESSIONAL_NET')
    const res = await p.post('/compose', {
      accountIds: [micro.id, pro.id],
      caption: 'Fine for everyone',
      'override.MICROBLOG_NET': 'x'.repeat(400),
      action: 'now',
    })
    expect(res.status).toBe(422)
    const html = await res.text()
    expect(errorsBeside(html, 'override-MICROBLOG_NET')).toMatch(
      /<li>The Microblog caption is 400 .*allows 280.*<\/li>/,
    )
    expect(errorsBeside(html, 'caption')).toBe('')
    // What was typed comes back.
    expect(html).toContain('x'.repeat(400))
    expect(await storedPosts(p)).toEqual([])
  })

  it('refuses a post without accounts next to the account list', async () => {
    const p = await mountContentPages()
    await account(p.t, 'MICROBLOG_NET')
    const res = await p.post('/compose', { caption: 'Nobody', action: 'draft' })
    expect(res.status).toBe(422)
    expect(errorsBeside(await res.text(), 'accountIds')).toContain('<li>')
    expect(await storedPosts(p)).toEqual([])
  })

  it('schedules at a wall-clock time of the workspace zone', async () => {
    const p = await mountContentPages({ timezone: 'Europe/Paris' })
    const micro = await account(p.t, 'MICROBLOG_NET')
    const year = new Date().getUTCFullYear() + 1
    const res = await p.post('/compose', {
      accountIds: micro.id,
      caption: 'Later',
      scheduledAt: `${year}-07-01T09:30`,
      action: 'schedule',
    })
    expect(res.status).toBe(303)
    const [post] = await storedPosts(p)
    expect(post.status).toBe('SCHEDULED')
    expect(post.scheduledAt).toBe(`${year}-07-01T07:30:00.000Z`)
  })

  it('the live check counts each network as the API validates, and places errors by field', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET')
    const pro = await account(p.t, 'PROFESSIONAL_NET')
    const caption = `Café 👋 https://example.com/some/long/path ${'y'.repeat(300)}`
    const body = new URLSearchParams({ caption })
    body.append('accountIds', micro.id)
    body.append('accountIds', pro.id)
    const app = await checkThroughPages(p, body)
    const api = await (
      await p.t.call('POST', '/v1/posts/validate', {
        body: { type: 'IMAGE', accountIds: [micro.id, pro.id], mediaIds: [], action: 'now', caption },
      })
    ).json()
    for (const target of api.targets) {
      const count = app.counts.find((c: { accountId: string }) => c.accountId === target.accountId)
      expect(count).toMatchObject({ length: target.captionLength, limit: target.captionLimit })
    }
    expect(app.valid).toBe(false)
    expect(app.fields.caption.join(' ')).toContain('Microblog allows 280')
  })

  it('edits a draft: the form shows what is stored and saves the change', async () => {
    const p = await mountContentPages()
    const micro = await account(p.t, 'MICROBLOG_NET')
    await p.post('/compose', { accountIds: micro.id, caption: 'First words', action: 'draft' })
    const [post] = await storedPosts(p)
    const form = await (await p.get(`/posts/${post.id}/edit`)).text()
    expect(form).toContain('First words')
    const res = await p.post(`/posts/${post.id}/edit`, {
      accountIds: micro.id,
      caption: 'Second words',
      action: 'draft',
    })
    expect(res.status).toBe(303)
    expect((await storedPosts(p))[0].caption).toBe('Second words')
  })
})

/** The composer's script request: the form as it is, with the CSRF header. */
async function checkThroughPages(p: PagesApp, body: URLSearchParams) {
  const res = await pagesRequest(p, '/compose/check', body)
  expect(res.status).toBe(200)
  return res.json()
}

function pagesRequest(p: PagesApp, path: string, body: URLSearchParams) {
  return p.request(path, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': p.csrfToken },
  })
}
