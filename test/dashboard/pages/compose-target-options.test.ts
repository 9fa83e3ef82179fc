import { describe, expect, it } from 'vitest'
import type { OptionField } from '../../../src/domain/rules/schema'
import { OptionFields } from '../../../src/dashboard/pages/compose-target-options'
import {
  optionInputsFromForm,
  optionInputsFromPost,
  targetOptionsOf,
} from '../../../src/dashboard/pages/compose-target-form'
import { fieldOfPath, problemsByField } from '../../../src/dashboard/pages/compose-form'

const field = (over: Partial<OptionField> & Pick<OptionField, 'key' | 'type'>): OptionField => ({
  label: `Label ${over.key}`,
  values: null,
  maxLength: null,
  maxItems: null,
  min: null,
  max: null,
  requiredToPublish: false,
  description: `About ${over.key}.`,
  ...over,
})
const FIELDS: OptionField[] = [
  field({ key: 'flair', type: 'string', maxLength: 64 }),
  field({ key: 'body', type: 'text' }),
  field({ key: 'nsfw', type: 'boolean' }),
  field({ key: 'kind', type: 'enum', values: ['event', 'offer'], requiredToPublish: true }),
  field({ key: 'tags', type: 'tags', maxItems: 4 }),
  field({ key: 'canonical', type: 'url' }),
  field({ key: 'startsAt', type: 'datetime' }),
  field({ key: 'priority', type: 'integer', min: 1, max: 3 }),
]
const ACCOUNT = { id: 'acc_1', platform: 'MICROBLOG_NET' as const, username: 'maker' }

const render = (values: Record<string, string>, errors: Record<string, string[]> = {}) =>
  String(OptionFields({ account: ACCOUNT, fields: FIELDS, values: { options: { values, types: {} } }, errors }))

describe('per-target option fields drawn from the rules', () => {
  it('draws one control per field, by its type, named so the form says how to read it', () => {
    const html = render({ 'acc_1.nsfw': 'true', 'acc_1.kind': 'offer', 'acc_1.priority': '2' })
    expect(html).toContain('data-accounts="acc_1"')
    expect(html).toMatch(
      /<input[^>]*name="opt\.string\.acc_1\.flair"[^>]*maxlength="64"|<input[^>]*maxlength="64"[^>]*name="opt\.string\.acc_1\.flair"/,
    )
    expect(html).toMatch(/<textarea[^>]*name="opt\.text\.acc_1\.body"/)
    expect(html).toMatch(/<input type="checkbox"[^>]*name="opt\.boolean\.acc_1\.nsfw"[^>]*checked/)
    expect(html).toMatch(/<select[^>]*name="opt\.enum\.acc_1\.kind"/)
    expect(html).toContain('<option value="offer" selected="">offer</option>')
    expect(html).toContain('Choose one')
    expect(html).toMatch(/<input type="text"[^>]*name="opt\.tags\.acc_1\.tags"/)
    expect(html).toContain('About tags. (separate with commas, at most 4)')
    expect(html).toMatch(/<input type="url"[^>]*name="opt\.url\.acc_1\.canonical"/)
    expect(html).toMatch(/<input type="datetime-local"[^>]*name="opt\.datetime\.acc_1\.startsAt"/)
    expect(html).toMatch(
      /<input type="number" step="1" min="1" max="3"[^>]*name="opt\.integer\.acc_1\.priority"[^>]*value="2"/,
    )
    expect(html).toContain('<label for="opt-acc_1-kind">Label kind (maker)</label>')
    expect(html).toContain('About kind. (needed to publish)')
  })

  it("shows a problem filed at targetOptions.<accountId>.<key> beside that field's control", () => {
    const errors = problemsByField([
      { path: 'targetOptions.acc_1.priority', message: 'Label priority is 4; at most 3.' },
    ])
    expect(fieldOfPath('targetOptions.acc_1.priority')).toBe('opt-acc_1-priority')
    expect(fieldOfPath('destinations.acc_1')).toBe('destination-acc_1')
    expect(fieldOfPath('title')).toBe('title')
    const html = render({}, errors)
    expect(html).toContain(
      '<ul class="field-errors" id="errors-opt-acc_1-priority" data-field-errors="opt-acc_1-priority" aria-live="polite"><li>Label priority is 4; at most 3.</li></ul>',
    )
  })

  it('reads the form back as targetOptions of the right types, and a stored post back as the form', () => {
    const inputs = optionInputsFromForm([
      ['opt.string.acc_1.flair', ' News '],
      ['opt.boolean.acc_1.nsfw', 'true'],
      ['opt.tags.acc_1.tags', 'a, b,, c'],
      ['opt.integer.acc_1.priority', '2'],
      ['opt.integer.acc_1.other', 'two'],
      ['opt.datetime.acc_1.startsAt', '2026-12-01T09:30'],
      ['opt.enum.acc_1.kind', ''],
      ['caption', 'not an option'],
    ])
    const options = targetOptionsOf(inputs, 'Europe/Paris')
    expect(options).toEqual({
      acc_1: {
        flair: 'News',
        nsfw: true,
        tags: ['a', 'b', 'c'],
        priority: 2,
        other: 'two',
        startsAt: '2026-12-01T08:30:00.000Z',
      },
    })
    expect(targetOptionsOf({ values: {}, types: {} }, 'UTC')).toBeNull()
    expect(optionInputsFromPost(options, 'Europe/Paris').values).toEqual({
      'acc_1.flair': 'News',
      'acc_1.nsfw': 'true',
      'acc_1.tags': 'a, b, c',
      'acc_1.priority': '2',
      'acc_1.other': 'two',
      'acc_1.startsAt': '2026-12-01T09:30',
    })
  })
})
