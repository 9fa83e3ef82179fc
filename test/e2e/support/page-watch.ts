/**
 * What a user would see go wrong in the browser console: script errors, console errors, resources that
 * failed to load or answered an error, and every Content-Security-Policy violation (reported by the
 * page itself through `securitypolicyviolation`, so a blocked script, style, image or connection is
 * named with the directive that blocked it).
 */
import type { Browser, BrowserContext } from 'playwright-core'

export interface WatchedContext {
  context: BrowserContext
  /** Everything that went wrong so far, one line each; a test expects it empty. */
  problems: string[]
}

/** A fresh context (its own cookies) whose every page is watched; its requests come from `address`. */
export async function watchedContext(browser: Browser, address: string): Promise<WatchedContext> {
  const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': address } })
  const problems: string[] = []
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} on ${e.documentURI}`)
    })
  })
  context.on('page', (page) => {
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error on ${page.url()}: ${m.text()} (${m.location().url})`)
    })
    page.on('pageerror', (err) => problems.push(`script error on ${page.url()}: ${err.message}`))
    page.on('requestfailed', (r) => {
      // A navigation that replaced the page cancels what the old one was still loading: not a fault.
      if (r.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`${r.url()} failed: ${r.failure()?.errorText}`)
    })
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.request().method()} ${r.url()} answered ${r.status()}`)
    })
  })
  return { context, problems }
}
