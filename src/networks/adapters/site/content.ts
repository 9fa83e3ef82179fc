/**
 * What a target becomes on the site: its content as HTML (the caption's text escaped, blank
 * lines as paragraphs, single line breaks as `<br>`), its options as the post's fields, and its
 * categories and tags as the site's term ids.
 */
import type { TargetContent } from '../../adapter'
import { NetworkFailure } from '../../http'
import { NETWORK, type Session, wp } from './api'

type OptionValue = string | number | boolean | string[]

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The caption as HTML paragraphs: what is sent as `content`. */
export function htmlOf(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n\n')
}

export interface SitePostFields {
  kind: 'post' | 'page'
  status: string
  excerpt: string | null
  slug: string | null
  categories: string[]
  tags: string[]
}

const list = (v: OptionValue | undefined): string[] =>
  Array.isArray(v) ? v.map((s) => s.trim()).filter((s) => s !== '') : []
const str = (v: OptionValue | undefined): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)

export function fieldsOf(content: TargetContent): SitePostFields {
  const options: Record<string, OptionValue> = content.targetOptions ?? {}
  const fields: SitePostFields = {
    kind: options.kind === 'page' ? 'page' : 'post',
    status: str(options.status) ?? 'publish',
    excerpt: str(options.excerpt),
    slug: str(options.slug),
    categories: list(options.categories),
    tags: list(options.tags),
  }
  if (fields.kind === 'page' && (fields.categories.length || fields.tags.length))
    throw new NetworkFailure(
      'rejected',
      `${NETWORK}: a page takes no categories or tags; remove them or publish a post.`,
    )
  return fields
}

/** The title to send: the target's, else the caption's first line; none is a refusal in words. */
export function titleOf(content: TargetContent): string {
  const title = content.title?.trim() || content.text.split(/\r?\n/, 1)[0]!.trim()
  if (!title) throw new NetworkFailure('rejected', `${NETWORK}: a post needs a title; set one on the post.`)
  return title
}

interface Term {
  id: number
  name: string
}

/** Terms of a taxonomy whose name matches (the search is by words; the name must be equal, case aside). */
async function findTerm(session: Session, taxonomy: 'categories' | 'tags', name: string): Promise<Term | null> {
  const answer = await wp(session, `${taxonomy}?search=${encodeURIComponent(name)}&per_page=100&_fields=id,name`)
  const terms = (Array.isArray(answer.body) ? answer.body : []) as Array<{ id: unknown; name: unknown }>
  const wanted = name.toLocaleLowerCase()
  const hit = terms.find((t) => typeof t.name === 'string' && decodeEntities(t.name).toLocaleLowerCase() === wanted)
  return hit && typeof hit.id === 'number' ? { id: hit.id, name } : null
}

/** Term names come back with HTML entities (`&amp;`). */
const decodeEntities = (s: string): string =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#039;/g, "'")

/** The ids of existing categories; an unknown name is a refusal naming it. */
export async function categoryIds(session: Session, names: string[]): Promise<number[]> {
  const ids: number[] = []
  for (const name of names) {
    const term = await findTerm(session, 'categories', name)
    if (!term)
      throw new NetworkFailure('rejected', `${NETWORK}: the site has no category "${name}"; create it there first.`)
    ids.push(term.id)
  }
  return ids
}

/** The ids of the tags, making the ones the site lacks (`term_exists` names the one already there). */
export async function tagIds(session: Session, names: string[]): Promise<number[]> {
  const ids: number[] = []
  for (const name of names) {
    const term = await findTerm(session, 'tags', name)
    if (term) {
      ids.push(term.id)
      continue
    }
    try {
      const made = await wp(session, 'tags', { method: 'POST', json: { name } })
      ids.push(Number(made.body?.id))
    } catch (err) {
      const existing = /term_exists|already exists/i.test(err instanceof Error ? err.message : '')
      if (!existing) throw err
      const again = await findTerm(session, 'tags', name)
      if (!again) throw err
      ids.push(again.id)
    }
  }
  return ids
}
