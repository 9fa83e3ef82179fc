/** The consent page an agent's authorization shows the signed-in user (no script; escaped by `hono/html`). */
import { html } from 'hono/html'
import type { HtmlEscapedString } from 'hono/utils/html'

type Html = HtmlEscapedString | Promise<HtmlEscapedString>

export const AGENT_FOOTER =
  'Giving an AI agent access to the Social Publishing API. You can revoke it on the API tokens page.'

export interface ConsentWorkspace {
  id: string
  name: string
}

export const consentPage = (input: {
  clientName: string
  redirectHost: string
  userName: string
  requestToken: string
  workspaces: ConsentWorkspace[]
}): Html => html`
<h1>Allow <b>${input.clientName}</b> to work in a workspace?</h1>
<p>Signed in as ${input.userName}. The application answers at <b>${input.redirectHost}</b>.</p>
<p>It will be able to do what an API token can do through the MCP endpoint: read and write posts, media, accounts,
queue slots and analytics of the workspace you choose, until you revoke it.</p>
${
  input.workspaces.length === 0
    ? html`<p class="error" role="alert">You manage no workspace: only owners and admins can allow an agent.</p>
<form method="post" action="/oauth2/authorize"><input type="hidden" name="request" value="${input.requestToken}">
<button type="submit" name="decision" value="deny" class="secondary">Back to the application</button></form>`
    : html`<form method="post" action="/oauth2/authorize">
<input type="hidden" name="request" value="${input.requestToken}">
<label for="f-workspace">Workspace</label>
<select id="f-workspace" name="workspace">${input.workspaces.map((w) => html`<option value="${w.id}">${w.name}</option>`)}</select>
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`
}`

export const agentErrorPage = (message: string): Html => html`
<h1>The application cannot be allowed</h1>
<p class="error" role="alert">${message}</p>`
