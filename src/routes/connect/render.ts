/**
 * The hosted connect pages: small self-contained HTML documents (no script, no outside asset).
 * Every interpolated value goes through `hono/html`, which escapes it. The answer carries a strict
 * Content-Security-Policy (nothing but our own inline style, forms to ourselves), no referrer (the
 * link's address never reaches the network's page) and no caching.
 */
import type { Context } from 'hono'
import { html, raw } from 'hono/html'
import type { HtmlEscapedString } from 'hono/utils/html'
import { toBase64 } from '../../lib/crypto'
import type { FormField } from '../../services/connect/form'

type Html = HtmlEscapedString | Promise<HtmlEscapedString>

const STYLE = `
body{margin:0;background:#f4f4f5;font:16px/1.5 system-ui,sans-serif;color:#18181b}
main{max-width:32rem;margin:3rem auto;padding:0 1rem}
section{background:#fff;border:1px solid #e4e4e7;border-radius:.75rem;padding:1.25rem 1.5rem}
h1{font-size:1.25rem;margin:0 0 .75rem}p{margin:.5rem 0}
.badge{background:#18181b;color:#fff;border-radius:.25rem;padding:0 .4rem;font-size:.8rem}
.error{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;border-radius:.5rem;padding:.5rem .75rem}
.ok{background:#f0fdf4;border:1px solid #bbf7d0;color:#166534;border-radius:.5rem;padding:.5rem .75rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}small{color:#71717a;display:block}
input{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #d4d4d8;border-radius:.375rem;font:inherit}
.button,button{display:inline-block;margin-top:1rem;padding:.5rem 1rem;border:0;border-radius:.375rem;
background:#18181b;color:#fff;font:inherit;text-decoration:none;cursor:pointer}
button.secondary{background:#e4e4e7;color:#18181b}
.choice{display:flex;gap:.5rem;align-items:baseline;font-weight:400}.choice input{width:auto}
footer{color:#71717a;font-size:.8rem;text-align:center;margin-top:1rem}`

async function securityHeaders(c: Context, formTargets: string[]): Promise<void> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(STYLE))
  c.header(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'sha256-${toBase64(new Uint8Array(digest))}'; form-action 'self'${formTargets.map((o) => ` ${o}`).join('')}; base-uri 'none'; frame-ancestors 'none'`,
  )
  c.header('Referrer-Policy', 'no-referrer')
  c.header('Cache-Control', 'no-store')
  c.header('X-Content-Type-Options', 'nosniff')
  c.header('X-Frame-Options', 'DENY')
}

const page = (title: string, body: Html): Html => html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title><style>${raw(STYLE)}</style></head>
<body><main><section>${body}</section>
<footer>Connecting an account to the Social Publishing API. Your password is never shown to the app that sent you here.</footer>
</main></body>
</html>`

/**
 * Sends a page with the security headers. `formTargets`: origins a form on it may end up at (the
 * redirect after a form that connects an account goes back to the caller's allowed origin).
 */
export async function sendPage(
  c: Context,
  status: 200 | 400 | 404 | 410 | 422 | 502,
  title: string,
  body: Html,
  formTargets: string[] = [],
) {
  await securityHeaders(c, formTargets)
  return c.html(page(title, body), status)
}

export const startPage = (platform: string, reconnect: boolean, continueHref: string, sandbox: boolean): Html => html`
<h1>${reconnect ? 'Reconnect' : 'Connect'} your <span class="badge">${platform}</span> account</h1>
<p>${
  sandbox
    ? 'This is the sandbox network: nothing is published anywhere. You will see its consent page next.'
    : `You will sign in at ${platform} and approve access; then you come back here.`
}</p>
<a class="button" href="${continueHref}">Continue to ${platform}</a>`

export const formPage = (
  platform: string,
  reconnect: boolean,
  action: string,
  fields: FormField[],
  values: Record<string, string>,
  problem: string | null,
): Html => html`
<h1>${reconnect ? 'Reconnect' : 'Connect'} your <span class="badge">${platform}</span> account</h1>
${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
<form method="post" action="${action}">
${fields.map(
  (f) => html`<label for="f-${f.name}">${f.label}</label>
<input id="f-${f.name}" name="${f.name}" type="${f.secret ? 'password' : 'text'}" autocomplete="off" required
 value="${f.secret ? '' : (values[f.name] ?? f.defaultValue ?? '')}">
${f.hint ? html`<small>${f.hint}</small>` : ''}`,
)}
<button type="submit">Connect</button>
</form>`

/** The identity chooser: one box per identity the sign-in granted, none ticked; the choice's token hidden. */
export const choosePage = (
  platform: string,
  action: string,
  token: string,
  identities: Array<{ key: string; username: string; externalId: string }>,
): Html => html`
<h1>Choose the <span class="badge">${platform}</span> accounts to connect</h1>
<p>Your sign-in gives access to ${identities.length} accounts. Tick the ones to publish to; the others are not connected.</p>
<form method="post" action="${action}">
<input type="hidden" name="choice" value="${token}">
${identities.map(
  (
    i,
  ) => html`<label class="choice" for="i-${i.key}"><input id="i-${i.key}" type="checkbox" name="identity" value="${i.key}">
${i.username} <small>${i.externalId}</small></label>`,
)}
<button type="submit">Connect the chosen accounts</button>
</form>`

export const donePage = (platform: string, username: string, reconnected: boolean): Html => html`
<h1><span class="badge">${platform}</span> ${reconnected ? 'reconnected' : 'connected'}</h1>
<p class="ok">The account <b>${username}</b> is ${reconnected ? 'reconnected' : 'connected'}. You can close this page.</p>`

export const refusedPage = (message: string): Html => html`
<h1>The account was not connected</h1>
<p class="error" role="alert">${message}</p>`

export const sandboxConsentPage = (
  platform: string,
  fields: { state: string; redirectUri: string; platform: string },
  suggested: string,
): Html => html`
<h1>The sandbox <span class="badge">${platform}</span> network</h1>
<p>The Social Publishing API asks to publish posts as this sandbox account. Nothing leaves this service.</p>
<form method="post" action="/sandbox/oauth/authorize">
<input type="hidden" name="state" value="${fields.state}">
<input type="hidden" name="redirect_uri" value="${fields.redirectUri}">
<input type="hidden" name="platform" value="${fields.platform}">
<label for="f-username">Account name</label>
<input id="f-username" name="username" type="text" required maxlength="64" value="${suggested}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`

export const instancePage = (
  platform: string,
  reconnect: boolean,
  action: string,
  problem: string | null,
): Html => html`
<h1>${reconnect ? 'Reconnect' : 'Connect'} your <span class="badge">${platform}</span> account</h1>
${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
<p>Your account lives on a server of its own. Name it; you will sign in there and approve access.</p>
<form method="post" action="${action}">
<label for="f-instance">Your server</label>
<input id="f-instance" name="instance" type="text" required placeholder="mastodon.social" autocomplete="url">
<button type="submit">Continue</button>
</form>`

export const continuePage = (origin: string, href: string): Html => html`
<h1>Sign in at ${origin}</h1>
<p>Your server will ask you to approve access; then you come back here.</p>
<a class="button" href="${href}">Continue to ${origin}</a>`
