/** Set-ups of the review link tests: a group with accounts, posts in review, a link, a visitor with cookies. */
import { expect } from 'vitest'
import { accountGroupMembers, accountGroups } from '../../src/db/schema'
import { newId } from '../../src/lib/ids'
import { account } from './fixtures'
import type { TestApp } from './test-app'

/** A group of the workspace holding new accounts (one per username). */
export async function groupWithAccounts(t: TestApp, name: string, usernames: string[]) {
  const id = newId('group')
  await t.deps.db.insert(accountGroups).values({ id, workspaceId: t.workspaceId, name })
  const accounts = []
  for (const username of usernames) {
    const a = await account(t, 'MICROBLOG_NET', username)
    await t.deps.db.insert(accountGroupMembers).values({ groupId: id, accountId: a.id, workspaceId: t.workspaceId })
    accounts.push(a)
  }
  return { id, name, accounts }
}

/** A draft on the accounts, submitted for review unless `submit` is false. */
export async function postInReview(t: TestApp, accountIds: string[], caption: string, submit = true) {
  const res = await t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds, mediaIds: [], action: 'draft', caption },
  })
  expect(res.status).toBe(200)
  const post = await res.json()
  if (!submit) return post
  const submitted = await t.call('POST', `/v1/posts/${post.id}/submit`, { body: {} })
  expect(submitted.status).toBe(200)
  return submitted.json()
}

/** Creates a link over the API; its page's path and the record. */
export async function createLink(t: TestApp, groupId: string, extra: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/v1/review-links', { body: { groupId, name: 'Client', ...extra } })
  expect(res.status).toBe(200)
  const link = await res.json()
  return { link, path: new URL(link.url).pathname }
}

/** A browser without an account: keeps the cookies it is given, sends forms from our own origin. */
export function visitor(t: TestApp, ip = t.ip) {
  const jar = new Map<string, string>()
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const [name, ...value] = pair!.split('=')
      jar.set(name!.trim(), value.join('='))
    }
    return res
  }
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  return {
    jar,
    async get(path: string) {
      return keep(await t.app.request(path, { headers: { 'x-forwarded-for': ip, cookie: cookie() } }))
    },
    async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
      return keep(
        await t.app.request(path, {
          method: 'POST',
          headers: {
            'x-forwarded-for': ip,
            'content-type': 'application/x-www-form-urlencoded',
            origin: 'http://localhost',
            cookie: cookie(),
            ...headers,
          },
          body: new URLSearchParams(fields).toString(),
        }),
      )
    },
    /** The form token of the page last shown. */
    csrfOf(html: string) {
      const m = /name="_csrf" value="([^"]+)"/.exec(html)
      if (!m) throw new Error('no form token on the page')
      return m[1]!
    },
  }
}
