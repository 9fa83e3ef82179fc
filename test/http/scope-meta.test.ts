/**
 * Every operation whose path names an account, a post or an inbox comment declares what its `{id}`
 * is (`RouteMeta.scope`), so a caller limited to some account groups is checked on each of them;
 * a write to a post declares `post-write`.
 */
import { OpenAPIHono } from '@hono/zod-openapi'
import { describe, expect, it } from 'vitest'
import { registerRoutes } from '../../src/routes'

const SUBJECTS: Array<[RegExp, string]> = [
  [/^\/v1\/accounts\/:id(\/|$)/, 'account'],
  [/^\/v1\/posts\/:id(\/|$)/, 'post'],
  [/^\/v1\/inbox\/comments\/:id(\/|$)/, 'comment'],
]

describe('RouteMeta.scope', () => {
  it('is declared by every route naming an account, a post or a comment', () => {
    const routes = registerRoutes(new OpenAPIHono())
    const missing: string[] = []
    for (const r of routes) {
      const subject = SUBJECTS.find(([re]) => re.test(r.path))?.[1]
      if (!subject) continue
      const declared = r.meta.scope
      const expected = subject === 'post' && r.method !== 'GET' && declared !== 'post' ? 'post-write' : subject
      if (declared !== expected) missing.push(`${r.method} ${r.path}: ${declared ?? 'none'}`)
    }
    expect(missing).toEqual([])
    const scopeOf = (method: string, path: string) =>
      routes.find((r) => r.method === method && r.path === path)?.meta.scope
    expect(scopeOf('PATCH', '/v1/posts/:id')).toBe('post-write')
    expect(scopeOf('GET', '/v1/posts/:id')).toBe('post')
  })
})
