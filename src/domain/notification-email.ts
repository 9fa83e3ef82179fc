/**
 * The email of a notification. The outbox stores its text with the dashboard's links as paths
 * (`/app/...`): the service's public address is known to the sender, not to the transaction that
 * wrote the row, so the sender makes them absolute and adds the HTML part when it sends.
 */
export interface StoredEmail {
  subject: string
  text: string
}

export interface EmailContent {
  title: string
  body: string
  /** A dashboard path (`/app/w/...`) or null. */
  link: string | null
  workspaceId: string
}

/** Where a user chooses which notifications reach them (every role may open it). */
export const preferencesPath = (workspaceId: string): string => `/app/w/${workspaceId}/settings/notifications`

export function composeEmail(content: EmailContent): StoredEmail {
  const lines = [content.body.trim()]
  if (content.link) lines.push('', `Open it: ${content.link}`)
  lines.push(
    '',
    '--',
    `To stop these emails, choose which notifications you receive: ${preferencesPath(content.workspaceId)}`,
  )
  return { subject: content.title.slice(0, 200), text: lines.join('\n') }
}

const PATH = /(^|\s)(\/app\/[^\s]*)/g

/** The text as sent: every dashboard path made absolute with `baseUrl` (no base: left as paths). */
export function absoluteText(text: string, baseUrl: string | null): string {
  if (!baseUrl) return text
  const base = baseUrl.replace(/\/+$/, '')
  return text.replace(PATH, (_m, space: string, path: string) => `${space}${base}${path}`)
}

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** A simple HTML part of the sent text: paragraphs, and each address a link. */
export function emailHtml(sentText: string): string {
  const paragraphs = sentText.split(/\n{2,}/).map((p) =>
    escapeHtml(p)
      .replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')
      .replace(/\n/g, '<br>'),
  )
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${paragraphs
    .map((p) => `<p>${p}</p>`)
    .join('')}</body></html>`
}
