/**
 * The role matrix of `/v1`: every registered operation (read from the routes the app registers,
 * never a hand list), called with a token of each role. A role the operation's permission allows
 * is never refused with 403 `forbidden`; any other role is, before anything is read or written.
 */
import { OpenAPIHono } from '@hono/zod-openapi'
import { describe, expect, it } from 'vitest'
import { can } from '../../src/domain/access'
import { MEMBER_ROLES } from '../../src/domain/people'
import type { AppEnv } from '../../src/http/context'
import { registerRoutes } from '../../src/routes'
import { createToken } from '../../src/services/tokens'
import { createTestApp } from '../support/test-app'

const ROUTES = registerRoutes(new OpenAPIHono<AppEnv>())

/** The path with every parameter filled with an id that names nothing. */
const concrete = (path: string) => path.replace(/:[A-Za-z]+/g, 'nothing_here')

describe('the role matrix of /v1', () => {
  it('lists every operation with a permission', () => {
    expect(ROUTES.length).toBeGreaterThan(50)
    for (const r of ROUTES) expect(r.meta.permission, `${r.method} ${r.path}`).toBeTruthy()
  })

  for (const role of MEMBER_ROLES) {
    it(`answers a ${role} by the permission of each operation`, async () => {
      // An app (and a client address, so a rate-limit bucket) per role: each walks every operation.
      const t = await createTestApp()
      const token = (await createToken(t.deps.db, t.workspaceId, role, { role })).token
      for (const r of ROUTES) {
        // The event stream stays open for a role that may read it: only its refusal is checked here.
        if (r.path.endsWith('/events/stream') && can(role, r.meta.permission)) continue
        const res = await t.call(r.method, concrete(r.path), {
          token,
          body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
          headers: { 'idempotency-key': `matrix-${role}-${Math.random()}` },
        })
        const what = `${role} ${r.method} ${r.path} (${r.meta.permission}) -> ${res.status}`
        if (can(role, r.meta.permission)) {
          expect(res.status, what).not.toBe(403)
          await res.body?.cancel()
        } else {
          expect(res.status, what).toBe(403)
          const { error } = (await res.json()) as { error: { code: string; message: string } }
          expect(error.code, what).toBe('forbidden')
          expect(error.message).toBe(`Your role (${role}) cannot ${error.message.split(' cannot ')[1]}`)
        }
      }
    }, 300_000)
  }
})
