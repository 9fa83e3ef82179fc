/**
 * What the browser tests check on every page they visit: the page is the answer it claims to be, it
 * does not scroll sideways, axe-core finds no serious or critical violation, nothing is logged as an
 * error and no request fails; and on a phone, which controls are smaller than a thumb (44 px).
 * axe is evaluated through the devtools protocol, so the pages keep their Content-Security-Policy
 * (a script or style it refuses shows up as a console error).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

export interface Audit {
  /** What is wrong, in words (empty when the page passes). */
  problems: string[]
  /** The page's width (`document.documentElement.scrollWidth`) and the window's. */
  scrollWidth: number
  innerWidth: number
  /** Serious and critical axe violations (rule ids). */
  axe: string[]
  /** Controls of `main` under 44 px in either direction (`tag#id.class "text"`), measured when asked. */
  smallTargets: string[]
}

/** The page's serious and critical axe violations, one line each. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE)
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(d: Document, o: object): Promise<{ violations: unknown[] }> } }).axe
    return (await axe.run(document, { resultTypes: ['violations'] })).violations
  })) as Array<{ id: string; impact: string | null; nodes: Array<{ target: string[] }> }>
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

/**
 * Controls of the page's main region a thumb has to hit that are smaller than 44 px: buttons, fields,
 * selects, summaries and links that stand alone (a link inside a sentence is exempt, as WCAG exempts
 * inline targets).
 */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = []
    const controls = (document.querySelector('main') ?? document).querySelectorAll<HTMLElement>(
      'button, select, textarea, summary, input:not([type=hidden]), a[href]',
    )
    for (const el of controls) {
      const box = el.getBoundingClientRect()
      // Not drawn, or off the page until focused (the skip link).
      if (box.width === 0 || box.height === 0 || box.right <= 0 || getComputedStyle(el).visibility === 'hidden')
        continue
      if (
        el.tagName === 'A' &&
        el.closest('p, td, dd, li:not(nav li), span, h1, h2, h3') &&
        !el.matches('.button, [role=button]')
      ) {
        const parentText = (el.parentElement?.textContent ?? '').trim()
        if (parentText.length > (el.textContent ?? '').trim().length + 2) continue
      }
      const input = el as HTMLInputElement
      if (el.tagName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio')) {
        // A box with its label: the label is the target.
        const label = input.labels?.[0]?.getBoundingClientRect()
        if (label && label.height >= 44) continue
      }
      if (box.height < 43.5 || box.width < 43.5) {
        const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).split(' ')[0]}` : ''}`
        out.push(
          `${name} "${(el.textContent ?? '').trim().slice(0, 20)}" ${Math.round(box.width)}x${Math.round(box.height)}`,
        )
      }
    }
    return out
  })
}

/** Visits `url` and audits it; `status` is the answer the page should be. */
export async function auditPage(page: Page, url: string, options: { status: number; touch: boolean }): Promise<Audit> {
  const problems: string[] = []
  const onConsole = (m: { type(): string; text(): string; location(): { url: string } }) => {
    if (m.type() !== 'error') return
    // The browser's own line about the page's error status, when that status is the point of the page.
    if (options.status >= 400 && m.location().url === url && m.text().includes(`status of ${options.status}`)) return
    problems.push(`console error: ${m.text()}`)
  }
  const onFailed = (r: { url(): string; failure(): { errorText: string } | null }) =>
    problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`)
  const onResponse = (r: { url(): string; status(): number }) => {
    if (r.status() >= 400 && r.url() !== url) problems.push(`request answered ${r.status()}: ${r.url()}`)
  }
  page.on('console', onConsole)
  page.on('requestfailed', onFailed)
  page.on('response', onResponse)
  try {
    const answer = await page.goto(url, { waitUntil: 'load' })
    if (answer?.status() !== options.status) problems.push(`answered ${answer?.status()}, not ${options.status}`)
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }))
    if (scrollWidth > innerWidth) problems.push(`scrolls sideways: ${scrollWidth} px wide in ${innerWidth} px`)
    const axe = await axeViolations(page)
    problems.push(...axe.map((v) => `axe: ${v}`))
    const small = options.touch ? await smallTargets(page) : []
    return { problems, scrollWidth, innerWidth, axe, smallTargets: small }
  } finally {
    page.off('console', onConsole)
    page.off('requestfailed', onFailed)
    page.off('response', onResponse)
  }
}
