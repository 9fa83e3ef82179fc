/**
 * Fuzzed requests to every page and form outside `/v1`: the dashboard (signed in, with the session's
 * CSRF token most of the time, so the fuzz reaches the handlers), sign-in and sign-up, the agents'
 * OAuth endpoints, hosted connect and the sandbox network's pages. Each route names its fields; a
 * request fills them with plausible values, the world's ids or hostile text, adds unknown or repeated
 * fields, and sends them in one of the body encodings a client may send (or get wrong).
 */
import fc from 'fast-check'

import type { PageRoute } from './fuzz-pages-routes'

export type { Family, PageRoute } from './fuzz-pages-routes'
export { PAGE_ROUTES } from './fuzz-pages-routes'

/** A value the world resolves when the request is sent: an id of a pool, or a session/form token. */
export class Slot {
  constructor(
    readonly pool: string,
    readonly index: number,
  ) {}
}

export type Value = string | Slot

/** Hostile text: what the database cannot store, markup, huge, odd Unicode, numbers that are not. */
const HOSTILE = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udc00y',
  '😀\u200d👩',
  'é\u0301',
  'x'.repeat(5000),
  '<script>alert(1)</script>',
  '"><img src=x>',
  "' OR '1'='1",
  '%00',
  '%ED%A0%80',
  '../../etc/passwd',
  'line\r\nInjected: 1',
  'null',
  '[]',
  '{}',
  '-1',
  '1e309',
  'NaN',
  '__proto__',
  'javascript:alert(1)',
]

/** Plausible values per field name, so requests also get past the first checks. */
const PLAUSIBLE: Record<string, fc.Arbitrary<Value>> = {
  email: fc.constantFrom('ann@example.com', 'owner@example.org', 'not-an-email', 'ANN@EXAMPLE.COM '),
  password: fc.constantFrom('a long enough pass', 'short', 'correct horse battery staple'),
  type: fc.constantFrom('IMAGE', 'VIDEO', 'CAROUSEL', 'TEXT', 'image'),
  action: fc.constantFrom('draft', 'now', 'schedule', 'queue', 'publish'),
  scheduledAt: fc.constantFrom('2030-01-01T10:00', '2020-01-01T10:00', '2030-02-30T25:61', 'tomorrow'),
  timezone: fc.constantFrom('UTC', 'Europe/Berlin', 'Mars/Olympus', 'utc'),
  role: fc.constantFrom('member', 'admin', 'owner', 'root'),
  platform: fc.constantFrom('MICROBLOG_NET', 'MESSAGING_NET', 'FEDERATED_NET', 'SANDBOX', 'NOPE'),
  connection: fc.constantFrom('SANDBOX', 'OAUTH', 'BOT_TOKEN', 'DIRECT_LOGIN', 'x'),
  decision: fc.constantFrom('allow', 'deny', 'maybe'),
  grant_type: fc.constantFrom('authorization_code', 'refresh_token', 'client_credentials', 'password'),
  response_type: fc.constantFrom('code', 'token'),
  code_challenge_method: fc.constantFrom('S256', 'plain'),
  redirect_uri: fc.constantFrom(
    'https://agent.example/cb',
    'http://127.0.0.1:7777/cb',
    'https://evil.example/cb',
    'http://localhost/oauth/callback/MICROBLOG_NET',
  ),
  code_challenge: fc.constantFrom('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'short'),
  grant_types: fc.constantFrom('authorization_code', 'refresh_token', 'implicit'),
  response_types: fc.constantFrom('code', 'token'),
  token_endpoint_auth_method: fc.constantFrom('none', 'client_secret_basic'),
  state: fc.constantFrom('state-1', ''),
  username: fc.constantFrom('studio', 'ann'),
  redirect_uris: fc.constantFrom('https://agent.example/cb', 'http://localhost/cb', 'javascript:x', 'ftp://x'),
  url: fc.constantFrom('https://hooks.example/sps', 'http://127.0.0.1/x', 'not a url'),
  events: fc.constantFrom('post.published', 'post.failed', 'account.expired', 'nope'),
  instance: fc.constantFrom('https://social.example', 'http://127.0.0.1:9', 'not a host', 'https://[::1]'),
  fit: fc.constantFrom('crop', 'pad', 'contain', 'x'),
  crop: fc.constantFrom('PHOTO_NET', 'auto', '0,0,10,10'),
  view: fc.constantFrom('week', 'month', 'year'),
  day: fc.constantFrom('2026-11-23', '2026-13-45', 'x'),
  at: fc.constantFrom('2030-01-01T10:00', 'x'),
  next: fc.constantFrom('/app', '/app/w/x', '//evil.example', 'https://evil.example'),
  sizeBytes: fc.constantFrom('1000', '-1', '99999999999', '1.5'),
  contentType: fc.constantFrom('image/jpeg', 'video/mp4', 'text/html'),
  filename: fc.constantFrom('a.jpg', '../x.jpg', 'a\u0000.jpg'),
  'weekday.0': fc.constantFrom('1', '7', '8', 'MONDAY'),
  'time.0': fc.constantFrom('09:00', '25:00', '9'),
  'weekday.new': fc.constantFrom('2', 'x'),
  'time.new': fc.constantFrom('10:30', '10:3'),
  accountIds: fc.nat().map((i) => new Slot('accounts', i)),
  mediaIds: fc.nat().map((i) => new Slot('media', i)),
  client_id: fc.nat().map((i) => new Slot('clients', i)),
  workspace: fc.nat().map((i) => new Slot('workspace', i)),
  folderId: fc.constantFrom('', 'fld_nope'),
}

const hostile = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE), weight: 4 },
  { arbitrary: fc.string({ maxLength: 30, unit: 'binary' }), weight: 1 },
)

/** One field's value: plausible, hostile, or an id of any pool. */
const fieldValue = (name: string): fc.Arbitrary<Value> =>
  fc.oneof(
    { arbitrary: PLAUSIBLE[name] ?? fc.constantFrom('fuzz', 'Fuzz name', 'x'), weight: 6 },
    { arbitrary: hostile, weight: 3 },
    {
      arbitrary: fc
        .tuple(fc.constantFrom('posts', 'accounts', 'media', 'members'), fc.nat())
        .map(([p, i]) => new Slot(p, i)),
      weight: 1,
    },
  )

const ODD_SEGMENTS = ['%00', 'x%00y', '..', '%2e%2e', '%2F', '%ED%A0%80', '%', '%zz', ' ', 'x'.repeat(300), '😀']

/** The path's segments: each `{pool}` an id of the pool (mostly) or an odd segment. */
const pathOf = (path: string): fc.Arbitrary<Value[]> =>
  fc.tuple(
    ...path
      .split('/')
      .slice(1)
      .map((s) => {
        const m = /^\{(\w+)\}$/.exec(s)
        if (!m) return fc.constant<Value>(s)
        return fc.oneof(
          { arbitrary: fc.nat().map((i): Value => new Slot(m[1]!, i)), weight: 8 },
          { arbitrary: fc.constantFrom(...ODD_SEGMENTS), weight: 2 },
          { arbitrary: fc.stringMatching(/^[a-z]{2,6}_[0-9A-Za-z]{22}$/), weight: 1 },
        )
      }),
  )

export type Encoding = 'urlencoded' | 'multipart' | 'multipart-no-boundary' | 'json' | 'text' | 'none' | 'garbage'

export interface PageRequest {
  route: PageRoute
  path: Value[]
  query: Array<[string, Value]>
  fields: Array<[string, Value]>
  encoding: Encoding
  garbageType: string
  signedIn: boolean
  csrf: 'valid' | 'wrong' | 'missing'
  multipartEdit: 'none' | 'file' | 'truncate' | 'bad-name'
}

const GARBAGE_TYPES = [
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary="unterminated',
  'multipart/mixed; boundary=fz',
  'application/x-www-form-urlencoded; charset=utf-16',
  'APPLICATION/X-WWW-FORM-URLENCODED',
  'text/html',
  'application/octet-stream',
  '*/*',
  'a/b/c',
  ';;',
  'application/json; charset=utf-16',
]

const fieldsOf = (route: PageRoute): fc.Arbitrary<Array<[string, Value]>> => {
  const named = (route.fields ?? []).map((name) =>
    fc.option(
      fc.array(fieldValue(name), { minLength: 1, maxLength: name.endsWith('Ids') || name === 'events' ? 3 : 1 }),
      {
        freq: 6,
        nil: [] as Value[],
      },
    ),
  )
  const extra = fc.array(fc.tuple(fc.constantFrom('_method', 'unknown', '', '__proto__', 'a[b]', 'x\u0000'), hostile), {
    maxLength: 2,
  })
  return fc
    .tuple(fc.tuple(...named), extra)
    .map(([values, more]) => [
      ...(route.fields ?? []).flatMap((name, i) => values[i]!.map((v): [string, Value] => [name, v])),
      ...more,
    ])
}

/** The fuzzed requests of one route. */
export function pageRequestsFor(route: PageRoute): fc.Arbitrary<PageRequest> {
  const natural: Encoding = route.json ? 'json' : 'urlencoded'
  return fc.record({
    route: fc.constant(route),
    path: pathOf(route.path),
    query: fc.array(fc.tuple(fc.constantFrom(...(route.query ?? ['q']), 'x'), fieldValue(route.query?.[0] ?? 'q')), {
      maxLength: route.query ? 3 : 1,
    }),
    fields: fieldsOf(route),
    encoding: fc.oneof(
      { arbitrary: fc.constant(natural), weight: 12 },
      {
        arbitrary: fc.constantFrom<Encoding>(
          'urlencoded',
          'multipart',
          'multipart-no-boundary',
          'json',
          'text',
          'none',
        ),
        weight: 4,
      },
      { arbitrary: fc.constant<Encoding>('garbage'), weight: 1 },
    ),
    garbageType: fc.oneof(fc.constantFrom(...GARBAGE_TYPES), fc.stringMatching(/^[\x20-\x7e]{0,20}$/)),
    signedIn: fc.oneof({ arbitrary: fc.constant(true), weight: 20 }, { arbitrary: fc.constant(false), weight: 1 }),
    csrf: fc.oneof(
      { arbitrary: fc.constant('valid' as const), weight: 20 },
      { arbitrary: fc.constantFrom('wrong' as const, 'missing' as const), weight: 1 },
    ),
    multipartEdit: fc.oneof(
      { arbitrary: fc.constant('none' as const), weight: 8 },
      { arbitrary: fc.constantFrom('file' as const, 'truncate' as const, 'bad-name' as const), weight: 1 },
    ),
  })
}
