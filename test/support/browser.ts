/**
 * The hosted connect pages over real HTTP, as a browser uses them: the app served on loopback
 * (its public URL is the address it really listens on), pages fetched with redirects followed one
 * hop at a time across origins (our pages, a network's fake, the caller's page), and forms read
 * out of the HTML and submitted.
 */
import { serve } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import { afterAll } from 'vitest'
import { createTestApp, type TestApp, type TestAppOptions } from './test-app'

export interface ServedApp extends TestApp {
  baseUrl: string
}

/** A test app listening on 127.0.0.1, with `publicUrl` its real address. Closed after the file. */
export async function serveTestApp(options: TestAppOptions = {}): Promise<ServedApp> {
  let app: TestApp['app'] | null = null
  const server = serve({ fetch: (req) => app!.fetch(req), hostname: '127.0.0.1', port: 0 })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  afterAll(() => new Promise<void>((r) => server.close(() => r())))
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const t = await createTestApp({ ...options, publicUrl: baseUrl })
  app = t.app
  return { ...t, baseUrl }
}

export interface Visit {
  /** Every address the browser went through, the first one included. */
  chain: string[]
  /** The last answer (a page, or a redirect to an address the browser is told not to follow). */
  response: Response
  url: string
  body: string
}

/** GET (or a form POST), following redirects as a browser does, until a page or `stopAt` is reached. */
export async function visit(
  url: string,
  init: { method?: 'GET' | 'POST'; form?: Record<string, string> | Array<[string, string]>; stopAt?: string } = {},
): Promise<Visit> {
  const chain = [url]
  let response = await fetch(url, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    ...(init.form
      ? { body: new URLSearchParams(init.form), headers: { 'content-type': 'application/x-www-form-urlencoded' } }
      : {}),
  })
  let current = url
  for (let hops = 0; response.status >= 300 && response.status < 400 && hops < 10; hops++) {
    const next = new URL(response.headers.get('location')!, current).href
    chain.push(next)
    current = next
    if (init.stopAt && next.startsWith(init.stopAt)) break
    response = await fetch(next, { redirect: 'manual' })
  }
  return { chain, response, url: current, body: await response.text() }
}

/** The page's (first or chosen) form: where it posts and its fields' values as the HTML gives them. */
export function readForm(html: string, index = 0): { action: string; fields: Record<string, string> } {
  const forms = [...html.matchAll(/<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/g)]
  const form = forms[index]
  if (!form) throw new Error('no form on the page')
  const fields: Record<string, string> = {}
  for (const input of form[2]!.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1]
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? ''
    if (name) fields[name] = unescapeHtml(value)
  }
  return { action: unescapeHtml(form[1]!), fields }
}

/** The href of the page's link whose text starts with `text`. */
export function linkHref(html: string, text: string): string {
  const m = new RegExp(`<a[^>]*href="([^"]*)"[^>]*>${text}`).exec(html)
  if (!m) throw new Error(`no link "${text}" on the page`)
  return unescapeHtml(m[1]!)
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
