import { describe, expect, it } from 'vitest'
import { cutText, type PreviewPost, previewOn, splitThreadParts } from '../../src/domain/post-preview'
import { RULES } from '../../src/domain/rules/index'
import { countText } from '../../src/domain/text-count'
import { EMPTY_CONTENT_FIELDS } from '../../src/domain/post-content'
import { previewTarget } from '../../src/domain/post-validation/preview'

const post = (over: Partial<PreviewPost> = {}): PreviewPost => ({
  type: 'IMAGE',
  caption: '',
  overrides: {},
  threadParts: [],
  media: [],
  linkUrl: '',
  pinTitle: '',
  ...over,
})

const image = { id: 'med_1', type: 'IMAGE' as const, url: 'https://cdn.example/a.jpg', altText: 'A jumper' }

describe('post preview', () => {
  it('keeps a caption within the budget whole, with nothing marked as overflow', () => {
    const p = previewOn('MICROBLOG_NET', post({ caption: 'Short and sweet' }))
    expect(p.caption).toEqual({ kept: 'Short and sweet', overflow: '', length: 15, limit: 280, over: false })
  })

  it('cuts a caption over the microblog budget at 280 weighted units, the rest is overflow', () => {
    const caption = `${'a'.repeat(270)} ${'b'.repeat(30)}`
    const p = previewOn('MICROBLOG_NET', post({ caption }))
    expect(p.caption.over).toBe(true)
    expect(p.caption.kept.length).toBe(280)
    expect(p.caption.kept + p.caption.overflow).toBe(caption)
    expect(p.caption.length).toBe(301)
  })

  it('marks overflow only on the networks whose budget the text exceeds', () => {
    const caption = 'x'.repeat(400)
    const shown = Object.fromEntries(
      (['MICROBLOG_NET', 'PROFESSIONAL_NET', 'OPENPROTOCOL_NET'] as const).map((id) => [
        id,
        previewOn(id, post({ caption })).caption.over,
      ]),
    )
    expect(shown).toEqual({ MICROBLOG_NET: true, PROFESSIONAL_NET: false, OPENPROTOCOL_NET: true })
  })

  it('counts as the validator does: emoji and non-Latin text weigh 2, a URL 23, and the cut never splits a grapheme', () => {
    const caption = `${'日本'.repeat(60)} https://example.com/${'p'.repeat(80)} ${'👩‍👩‍👧'.repeat(50)}`
    const p = previewOn('MICROBLOG_NET', post({ caption }))
    expect(p.caption.length).toBe(countText(caption, RULES.MICROBLOG_NET.caption))
    expect(countText(p.caption.kept, RULES.MICROBLOG_NET.caption)).toBeLessThanOrEqual(280)
    // Keeping one more grapheme would go over.
    const next = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(p.caption.overflow)][0]!
    expect(countText(p.caption.kept + next.segment, RULES.MICROBLOG_NET.caption)).toBeGreaterThan(280)
    expect(p.caption.overflow.startsWith('👩‍👩‍👧')).toBe(true)
  })

  it("agrees with the dry run's length and limit on every network", () => {
    const caption = `Café 👋 https://example.com/x example.org ${'y'.repeat(300)}`
    const content = { ...EMPTY_CONTENT_FIELDS, type: 'IMAGE' as const, mediaIds: [], caption }
    for (const platform of Object.keys(RULES) as (keyof typeof RULES)[]) {
      const target = previewTarget(content, { platform }, [])
      const p = previewOn(platform, post({ caption }))
      expect({ length: p.caption.length, limit: p.caption.limit }).toEqual({
        length: target.captionLength,
        limit: target.captionLimit,
      })
    }
  })

  it('uses the network override for that network only', () => {
    const input = post({ caption: 'Base text', overrides: { MICROBLOG_NET: 'Short one' } })
    expect(previewOn('MICROBLOG_NET', input).caption.kept).toBe('Short one')
    expect(previewOn('MICROBLOG_NET', input).overridden).toBe(true)
    expect(previewOn('PROFESSIONAL_NET', input).caption.kept).toBe('Base text')
  })

  it('splits the thread into parts on thread networks, each against the part budget, and says where parts are ignored', () => {
    const parts = splitThreadParts(`Second\n---\n${'z'.repeat(290)}\n  ---  \nFourth`)
    expect(parts).toHaveLength(3)
    const micro = previewOn('MICROBLOG_NET', post({ caption: 'Head', threadParts: parts }))
    expect(micro.parts.map((x) => x.over)).toEqual([false, true, false])
    expect(micro.parts[1]!.kept).toHaveLength(280)
    const pro = previewOn('PROFESSIONAL_NET', post({ caption: 'Head', threadParts: parts }))
    expect(pro.parts).toEqual([])
    expect(pro.partsIgnored).toBe(true)
  })

  it("frames the first media in the network's recommended canvas", () => {
    const two = post({ media: [image, { ...image, id: 'med_2' }] })
    expect(previewOn('MICROBLOG_NET', two).media).toMatchObject({ width: 1080, height: 566, more: 1 })
    expect(previewOn('TEXTTHREAD_NET', two).media).toMatchObject({ width: 1080, height: 1350, more: 1 })
  })

  it('shows a link card for the first link of a text-only post, with its domain', () => {
    const p = previewOn('PROFESSIONAL_NET', post({ caption: 'Read https://www.example.org/launch?x=1 today' }))
    expect(p.link).toEqual({ url: 'https://www.example.org/launch?x=1', domain: 'example.org' })
    expect(previewOn('PROFESSIONAL_NET', post({ caption: 'No link here.' })).link).toBeNull()
  })

  it('shows the title a network publishes: the pin title, else the first line, cut at its budget', () => {
    const caption = `${'T'.repeat(120)}\nBody`
    const pin = previewOn('PINBOARD_NET', post({ caption, media: [image] }))
    expect(pin.title).toMatchObject({ over: true, limit: 100 })
    expect(pin.title!.kept).toHaveLength(100)
    expect(previewOn('PINBOARD_NET', post({ caption, media: [image], pinTitle: 'Pin' })).title!.kept).toBe('Pin')
    expect(previewOn('MICROBLOG_NET', post({ caption })).title).toBeNull()
    expect(previewOn('PINBOARD_NET', post({ caption })).needsMedia).toBe(true)
  })

  it('cuts by the counting of the rule given', () => {
    expect(cutText('ab👋cd', { counting: 'utf8_bytes' }, 4)).toMatchObject({ kept: 'ab', overflow: '👋cd', over: true })
    expect(cutText('ab👋cd', { counting: 'graphemes' }, 4)).toMatchObject({ kept: 'ab👋c', overflow: 'd', length: 5 })
  })
})
