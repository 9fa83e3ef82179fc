import { describe, expect, it } from 'vitest'
import { createTestApp } from '../support/test-app'

describe('OpenAPI description', () => {
  it('is OpenAPI 3.1, version 1.0.0, public, and documents every route with its errors', async () => {
    const t = await createTestApp()
    const res = await t.call('GET', '/v1/openapi.json', { token: null })
    expect(res.status).toBe(200)
    const doc = await res.json()
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.version).toBe('1.0.0')
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op })),
    )
    expect(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()).toEqual(
      expect.arrayContaining([
        'GET /v1/me',
        'GET /v1/accounts',
        'GET /v1/platforms',
        'GET /v1/queue-slots',
        'PUT /v1/queue-slots',
      ]),
    )
    for (const { op, method, path } of operations) {
      // Success is 200, or 202 for what is accepted and done later (POST /v1/analytics/refresh).
      expect(op.responses['200'] ?? op.responses['202'], `${method} ${path}`).toBeDefined()
      for (const status of ['400', '401', '404', '429', '500']) expect(op.responses[status]).toBeDefined()
      expect(op.responses['401'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error')
    }
    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toContain('plan_limit_reached')
  })

  it('documents exactly the routes the app answers: each one says 401 without a token', async () => {
    const t = await createTestApp()
    const doc = await (await t.call('GET', '/v1/openapi.json', { token: null })).json()
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) {
        const concrete = path.replace(/\{[^}]+\}/g, 'x_1')
        const res = await t.call(method.toUpperCase(), concrete, { token: null })
        expect(res.status, `${method} ${path}`).toBe(401)
      }
    }
  })

  it('serves an interactive reference at /docs', async () => {
    const t = await createTestApp()
    const res = await t.call('GET', '/docs', { token: null })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('/v1/openapi.json')
  })
})
