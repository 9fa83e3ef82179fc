import { describe, expect, it } from 'vitest'
import { RULES } from '../../src/domain/rules/index'
import type { OptionField, PlatformRules } from '../../src/domain/rules/schema'
import type { PlatformId } from '../../src/domain/vocabulary'
import { EMPTY_CONTENT_FIELDS } from '../../src/domain/post-content'
import { checkOptionValue, checkTargetOptions } from '../../src/domain/post-validation/target-options'
import { checkDestinations, checkTitle } from '../../src/domain/post-validation/destinations'
import type { PostContent, ValidationAccount, ValidationContext } from '../../src/domain/post-validation'

/** One synthetic field of each type, every limit set. */
const field = (over: Partial<OptionField> & Pick<OptionField, 'key' | 'type'>): OptionField => ({
  label: over.key,
  values: null,
  maxLength: null,
  maxItems: null,
  min: null,
  max: null,
  requiredToPublish: false,
  description: 'synthetic',
  ...over,
})
const FIELDS: OptionField[] = [
  field({ key: 'flair', type: 'string', maxLength: 5 }),
  field({ key: 'body', type: 'text', maxLength: 10 }),
  field({ key: 'nsfw', type: 'boolean' }),
  field({ key: 'kind', type: 'enum', values: ['event', 'offer'], requiredToPublish: true }),
  field({ key: 'tags', type: 'tags', maxItems: 2, maxLength: 4 }),
  field({ key: 'canonical', type: 'url', maxLength: 30 }),
  field({ key: 'startsAt', type: 'datetime' }),
  field({ key: 'priority', type: 'integer', min: 1, max: 3 }),
]

/** MICROBLOG_NET's rules with synthetic fields, a required destination and a title field. */
const synthetic = (platform: PlatformId): PlatformRules =>
  platform === 'MICROBLOG_NET'
    ? {
        ...RULES.MICROBLOG_NET,
        title: {
          ...RULES.PINBOARD_NET.title!,
          maxLength: 10,
          required: true,
          field: 'title',
          media: null,
        },
        options: {
          ...RULES.MICROBLOG_NET.options,
          fields: FIELDS,
          destination: { noun: 'room', nounPlural: 'rooms', requiredToPublish: true, note: null },
        },
      }
    : RULES[platform]

const micro: ValidationAccount = { id: 'acc_micro', platform: 'MICROBLOG_NET', connection: 'DIRECT_LOGIN' }
const pin: ValidationAccount = { id: 'acc_pin', platform: 'PINBOARD_NET', connection: 'DIRECT_LOGIN' }

function ctx(
  content: Partial<PostContent>,
  intent: 'draft' | 'publish' = 'draft',
  accounts = [micro, pin],
): ValidationContext {
  const full = { ...EMPTY_CONTENT_FIELDS, type: 'IMAGE', mediaIds: [], caption: 'Hello', ...content } as PostContent
  return {
    content: full,
    accounts,
    intent,
    platforms: [...new Set(accounts.map((a) => a.platform))],
    media: [],
    mediaKind: null,
  }
}
const paths = (vs: Array<{ path: string }>) => vs.map((v) => v.path)

describe('option values against their field', () => {
  const ok: Array<[string, unknown]> = [
    ['flair', 'short'],
    ['body', 'two\nlines'],
    ['nsfw', false],
    ['kind', 'offer'],
    ['tags', ['a', 'bc']],
    ['canonical', 'https://example.com/a'],
    ['startsAt', '2026-12-01T09:30:00+01:00'],
    ['priority', 3],
  ]
  it.each(ok)('accepts %s = %j', (key, value) => {
    expect(checkOptionValue(FIELDS.find((f) => f.key === key)!, value as never)).toEqual([])
  })

  const refused: Array<[string, unknown, RegExp]> = [
    ['flair', 'two\nlines', /one line of text/],
    ['flair', 'toolong', /7 characters; at most 5/],
    ['flair', 3, /one line of text/],
    ['body', 'x'.repeat(11), /11 characters; at most 10/],
    ['nsfw', 'yes', /true or false/],
    ['kind', 'alert', /"alert" is not one of event or offer/],
    ['kind', true, /one of the listed values/],
    ['tags', 'a,b', /a list of strings/],
    ['tags', ['a', 'b', 'c'], /3 entries; at most 2/],
    ['tags', ['abcde'], /"abcde" is 5 characters; each entry at most 4/],
    ['tags', ['a', ' '], /an empty entry/],
    ['canonical', 'ftp://example.com', /http:\/\/ or https:\/\//],
    ['canonical', `https://example.com/${'p'.repeat(20)}`, /at most 30/],
    ['startsAt', '2026-12-01 09:30', /ISO 8601/],
    ['startsAt', '2026-13-45T09:30:00Z', /ISO 8601/],
    ['priority', 1.5, /whole number/],
    ['priority', '2', /whole number/],
    ['priority', 0, /0; at least 1/],
    ['priority', 4, /4; at most 3/],
  ]
  it.each(refused)('refuses %s = %j', (key, value, message) => {
    const problems = checkOptionValue(FIELDS.find((f) => f.key === key)!, value as never)
    expect(problems).toHaveLength(1)
    expect(problems[0]!.message).toMatch(message)
  })
})

describe('targetOptions', () => {
  it('names each refused value at targetOptions.<accountId>.<key> as invalid_option', () => {
    const vs = checkTargetOptions(
      ctx({ targetOptions: { acc_micro: { flair: 'toolong', unknown: 1, kind: 'offer' } } }),
      synthetic,
    )
    expect(vs.map((v) => [v.code, v.path, v.accountId, v.platform])).toEqual([
      ['invalid_option', 'targetOptions.acc_micro.flair', 'acc_micro', 'MICROBLOG_NET'],
      ['invalid_option', 'targetOptions.acc_micro.unknown', 'acc_micro', 'MICROBLOG_NET'],
    ])
    expect(vs[0]).toMatchObject({ limit: 5, actual: 7 })
    expect(vs[1]!.message).toMatch(/takes no option "unknown"/)
  })

  it('refuses an entry for an account not of the post, or of a network that takes no option', () => {
    const vs = checkTargetOptions(ctx({ targetOptions: { acc_pin: { a: 1 }, acc_nobody: {} } }), synthetic)
    expect(paths(vs)).toEqual(['targetOptions.acc_pin', 'targetOptions.acc_nobody'])
    expect(vs[0]!.message).toMatch(/PINBOARD_NET account, whose network takes no options/)
    expect(vs[1]!.message).toMatch(/not among accountIds/)
  })

  it('a required field is what a draft may lack; schedule and publish refuse it in words', () => {
    expect(checkTargetOptions(ctx({}, 'draft'), synthetic)).toEqual([])
    const vs = checkTargetOptions(ctx({ targetOptions: { acc_micro: { kind: ' ' } } }, 'publish'), synthetic)
    expect(paths(vs)).toEqual(['targetOptions.acc_micro.kind'])
    expect(vs[0]!.message).toMatch(/needs kind \(kind\) to publish; set it, or save the post as a draft/)
    expect(checkTargetOptions(ctx({ targetOptions: { acc_micro: { kind: 'event' } } }, 'publish'), synthetic)).toEqual(
      [],
    )
  })

  it('the registry as served: every network of the first twelve takes no option', () => {
    expect(paths(checkTargetOptions(ctx({ targetOptions: { acc_micro: { flair: 'x' } } })))).toEqual([
      'targetOptions.acc_micro',
    ])
  })
})

describe('destinations', () => {
  it('refuses an entry for an account not of the post, or of a network without destinations', () => {
    const noDestination = (p: PlatformId) => RULES[p]
    const vs = checkDestinations(ctx({ destinations: { acc_micro: 'r1', acc_nobody: 'r2' } }), noDestination)
    expect(vs.map((v) => [v.code, v.path])).toEqual([
      ['invalid_option', 'destinations.acc_micro'],
      ['invalid_option', 'destinations.acc_nobody'],
    ])
    expect(vs[0]!.message).toMatch(/whose network has no destinations/)
  })

  it('a required destination is what a draft may lack; schedule and publish refuse it naming the noun', () => {
    expect(checkDestinations(ctx({}, 'draft', [micro]), synthetic)).toEqual([])
    const vs = checkDestinations(ctx({}, 'publish', [micro]), synthetic)
    expect(paths(vs)).toEqual(['destinations.acc_micro'])
    expect(vs[0]!.message).toBe(
      'MICROBLOG_NET account acc_micro has no room; pick one from GET /v1/accounts/acc_micro/destinations, or save the post as a draft.',
    )
    expect(checkDestinations(ctx({ destinations: { acc_micro: 'r1' } }, 'publish', [micro]), synthetic)).toEqual([])
  })

  it('the pinboard network takes its board in destinations or pinboardNetBoards; different boards are refused', () => {
    expect(checkDestinations(ctx({ destinations: { acc_pin: 'b1' } }, 'publish', [pin]))).toEqual([])
    expect(
      checkDestinations(
        ctx({ destinations: { acc_pin: 'b1' }, pinboardNetBoards: { acc_pin: 'b1' } }, 'publish', [pin]),
      ),
    ).toEqual([])
    const vs = checkDestinations(
      ctx({ destinations: { acc_pin: 'b1' }, pinboardNetBoards: { acc_pin: 'b2' } }, 'draft', [pin]),
    )
    expect(paths(vs)).toEqual(['destinations.acc_pin'])
    expect(vs[0]!.message).toMatch(/name different boards; send one of them/)
  })
})

describe('title', () => {
  it('over the budget is title_too_long with the limit; unset and a caption derives it', () => {
    const vs = checkTitle(ctx({ title: 'x'.repeat(11) }, 'draft', [micro]), synthetic)
    expect(vs).toEqual([expect.objectContaining({ code: 'title_too_long', path: 'title', limit: 10, actual: 11 })])
    expect(checkTitle(ctx({ title: null }, 'publish', [micro]), synthetic)).toEqual([])
  })

  it('required: a post to go out with neither a title nor a caption to derive it from is refused', () => {
    expect(checkTitle(ctx({ title: null, caption: '' }, 'draft', [micro]), synthetic)).toEqual([])
    const vs = checkTitle(ctx({ title: '  ', caption: '\nsecond line' }, 'publish', [micro]), synthetic)
    expect(vs).toEqual([expect.objectContaining({ code: 'invalid_option', path: 'title', platform: 'MICROBLOG_NET' })])
  })

  it('a network without a title field ignores title', () => {
    expect(checkTitle(ctx({ title: 'x'.repeat(500) }, 'publish', [micro, pin]))).toEqual([])
  })
})
