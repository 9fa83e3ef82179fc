/**
 * Every page and form outside `/v1` the pages fuzz reaches, with the fields each reads: the dashboard
 * (public and signed-in), the agents' OAuth endpoints and consent page, hosted connect and the sandbox
 * network's pages, and the public pages of a client review link.
 */
export type Family = 'dashboard' | 'sign-in/up' | 'oauth2' | 'connect' | 'sandbox' | 'review'

/** A route: `{pool}` segments take an id of the world's pool (or an odd segment). */
export interface PageRoute {
  family: Family
  method: 'GET' | 'POST'
  path: string
  fields?: string[]
  query?: string[]
  /** Which CSRF token the form carries when valid: the session's, or the public forms' cookie. */
  csrf?: 'session' | 'public' | 'none'
  /** The body is JSON by nature (registration, the upload script's calls). */
  json?: boolean
  /** Fields that are lists in a JSON body (a form repeats them). */
  lists?: string[]
}

const W = '/app/w/{workspace}'
const POST_FIELDS = ['type', 'accountIds', 'mediaIds', 'caption', 'threadParts', 'firstComment', 'linkUrl']
const COMPOSE = [
  ...POST_FIELDS,
  'pinTitle',
  'title',
  'scheduledAt',
  'action',
  'override.CHAT_NET',
  'board.{accounts}',
  'destination.{accounts}',
  'opt.boolean.{accounts}.nsfw',
  'opt.tags.{accounts}.tags',
  'opt.enum.{accounts}.status',
]
const session = (method: 'GET' | 'POST', path: string, fields?: string[], query?: string[]): PageRoute => ({
  family: 'dashboard',
  method,
  path: `${W}${path}`,
  csrf: method === 'POST' ? 'session' : 'none',
  ...(fields ? { fields } : {}),
  ...(query ? { query } : {}),
})

export const PAGE_ROUTES: PageRoute[] = [
  { family: 'sign-in/up', method: 'GET', path: '/app/sign-in', query: ['next'] },
  { family: 'sign-in/up', method: 'POST', path: '/app/sign-in', fields: ['email', 'password', 'next'], csrf: 'public' },
  { family: 'sign-in/up', method: 'GET', path: '/app/sign-up' },
  {
    family: 'sign-in/up',
    method: 'POST',
    path: '/app/sign-up',
    fields: ['name', 'email', 'password', 'workspaceName'],
    csrf: 'public',
  },
  { family: 'sign-in/up', method: 'GET', path: '/app/invitations/{invitationTokens}' },
  {
    family: 'sign-in/up',
    method: 'POST',
    path: '/app/invitations/{invitationTokens}',
    fields: ['email', 'name', 'password'],
    csrf: 'public',
  },
  { family: 'sign-in/up', method: 'GET', path: '/app' },
  { family: 'sign-in/up', method: 'GET', path: '/app/assets/{assets}' },
  session('GET', '', undefined, ['view', 'day']),
  session('GET', '/calendar', undefined, ['view', 'day']),
  session('GET', '/compose', undefined, ['at']),
  session('POST', '/compose', COMPOSE),
  session('POST', '/compose/check', COMPOSE),
  session('GET', '/posts/{posts}'),
  session('GET', '/posts/{posts}/edit'),
  session('POST', '/posts/{posts}/edit', COMPOSE),
  session('POST', '/posts/{posts}/reschedule', ['scheduledAt', 'back']),
  session('POST', '/posts/{posts}/retry'),
  session('POST', '/posts/{posts}/publish'),
  session('POST', '/posts/{posts}/delete', ['fromNetworks']),
  session('GET', '/accounts', undefined, ['accountId', 'error', 'platform', 'groupId']),
  session('POST', '/accounts/connect', ['platform', 'connection', 'groupId']),
  session('POST', '/accounts/{accounts}/reconnect'),
  session('GET', '/accounts/{accounts}/disconnect'),
  session('POST', '/accounts/{accounts}/disconnect'),
  session('GET', '/media', undefined, ['folderId']),
  session('POST', '/media/{media}/edit', ['altText', 'folder', 'folderId']),
  session('GET', '/media/{media}/canvases'),
  session('POST', '/media/{media}/canvases', ['crop', 'fit']),
  { ...session('POST', '/media/uploads', ['filename', 'contentType', 'sizeBytes']), json: true },
  { ...session('POST', '/media/register', ['storageKey', 'altText', 'folderId']), json: true },
  session('GET', '/queue'),
  session('POST', '/queue', ['weekday.0', 'time.0', 'remove.0', 'weekday.new', 'time.new']),
  session('GET', '/analytics', undefined, ['range', 'accountId']),
  session('GET', '/settings'),
  session('POST', '/settings', ['name', 'timezone']),
  session('GET', '/settings/tokens'),
  session('POST', '/settings/tokens', ['name']),
  session('POST', '/settings/tokens/{tokens}/revoke'),
  session('GET', '/settings/members'),
  session('POST', '/settings/invitations', ['email', 'role']),
  session('POST', '/settings/invitations/{invitations}/revoke'),
  session('POST', '/settings/members/{members}/role', ['role']),
  session('POST', '/settings/members/{members}/remove'),
  session('GET', '/settings/webhooks'),
  session('POST', '/settings/webhooks', ['url', 'events']),
  session('POST', '/settings/webhooks/{hooks}/delete'),
  session('POST', '/settings/webhooks/{hooks}/replay/{events}'),
  session('GET', '/settings/review-links'),
  session('POST', '/settings/review-links', ['groupId', 'name', 'expiresInDays']),
  session('POST', '/settings/review-links/{reviewLinks}/revoke'),
  session('POST', '/settings/approval', ['approvalRequired']),
  session('POST', '/settings/members/{members}/groups', ['groupIds']),
  session('GET', '/settings/groups'),
  session('GET', '/settings/groups/new'),
  session('POST', '/settings/groups', ['name', 'color', 'approvalRequired', 'accountIds']),
  session('GET', '/settings/groups/{groups}'),
  session('POST', '/settings/groups/{groups}', ['name', 'color', 'approvalRequired', 'accountIds']),
  session('GET', '/settings/labels'),
  session('POST', '/settings/labels', ['name', 'color']),
  session('POST', '/settings/labels/{labels}', ['name', 'color']),
  session('GET', '/settings/activity', undefined, ['actorKind', 'action', 'subjectId', 'from', 'to', 'cursor']),
  session('GET', '/settings/activity.csv', undefined, ['actorKind', 'action', 'from', 'to']),
  session('GET', '/notifications', undefined, ['unread', 'cursor']),
  session('POST', '/notifications/read-all'),
  session('GET', '/settings/notifications'),
  session('POST', '/settings/notifications', ['in_app.review_requested', 'email.mentioned']),
  session('POST', '/posts/{posts}/submit', ['action', 'scheduledAt', 'note']),
  session('POST', '/posts/{posts}/approve', ['version', 'comment']),
  session('POST', '/posts/{posts}/request-changes', ['version', 'comment']),
  session('POST', '/posts/{posts}/notes', ['body', 'back']),
  { family: 'review', method: 'GET', path: '/review/{reviewTokens}' },
  { family: 'review', method: 'POST', path: '/review/{reviewTokens}/name', fields: ['name'] },
  {
    family: 'review',
    method: 'POST',
    path: '/review/{reviewTokens}/posts/{posts}/approve',
    fields: ['version', 'comment'],
  },
  {
    family: 'review',
    method: 'POST',
    path: '/review/{reviewTokens}/posts/{posts}/request-changes',
    fields: ['version', 'comment'],
  },
  {
    family: 'oauth2',
    method: 'GET',
    path: '/app/oauth/authorize',
    query: ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'state', 'scope'],
  },
  {
    family: 'oauth2',
    method: 'POST',
    path: '/app/oauth/authorize',
    fields: ['request', 'workspace', 'decision'],
    csrf: 'session',
  },
  {
    family: 'oauth2',
    method: 'POST',
    path: '/oauth2/register',
    fields: ['client_name', 'redirect_uris', 'grant_types', 'response_types', 'token_endpoint_auth_method', 'scope'],
    json: true,
    lists: ['redirect_uris', 'grant_types', 'response_types'],
  },
  {
    family: 'oauth2',
    method: 'POST',
    path: '/oauth2/token',
    fields: ['grant_type', 'client_id', 'code', 'code_verifier', 'redirect_uri', 'resource', 'refresh_token'],
  },
  { family: 'oauth2', method: 'POST', path: '/oauth2/revoke', fields: ['client_id', 'token', 'token_type_hint'] },
  { family: 'oauth2', method: 'GET', path: '/.well-known/oauth-authorization-server' },
  { family: 'oauth2', method: 'GET', path: '/.well-known/oauth-protected-resource/mcp' },
  { family: 'connect', method: 'GET', path: '/connect/{links}' },
  { family: 'connect', method: 'GET', path: '/connect/{links}/authorize' },
  {
    family: 'connect',
    method: 'POST',
    path: '/connect/{links}',
    fields: ['botToken', 'chatId', 'webhookUrl', 'apiKey'],
  },
  { family: 'connect', method: 'POST', path: '/connect/{links}/instance', fields: ['instance'] },
  { family: 'connect', method: 'GET', path: '/oauth/callback/{platforms}', query: ['code', 'state', 'error'] },
  { family: 'connect', method: 'POST', path: '/oauth/choose/{platforms}', fields: ['choice', 'identity'] },
  { family: 'sandbox', method: 'GET', path: '/sandbox/posts/{sandboxPosts}' },
  { family: 'sandbox', method: 'POST', path: '/sandbox/posts/{sandboxPosts}/comments', fields: ['name', 'text'] },
  { family: 'sandbox', method: 'GET', path: '/sandbox/oauth/authorize', query: ['platform', 'state', 'redirect_uri'] },
  {
    family: 'sandbox',
    method: 'POST',
    path: '/sandbox/oauth/authorize',
    fields: ['platform', 'state', 'redirect_uri', 'username', 'decision'],
  },
]
