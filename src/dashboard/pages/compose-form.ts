/**
 * The composer's form as the API's post body: what a member typed (fields named after the body's
 * fields) becomes the `CreatePostInput` the services check, and every problem the services name
 * by its body path (`captionOverrides.MICROBLOG_NET`, `pinboardNetBoards.acc_...`) is shown next to
 * the form control of that path.
 */
import { splitThreadParts } from '../../domain/post-preview'
import { RULES } from '../../domain/rules/index'
import type { PlatformId } from '../../domain/vocabulary'
import type { PostRecord } from '../../services/posts/record'
import { fromLocalInput, toLocalInput } from './zoned-time'
import {
  type OptionInputs,
  optionId,
  optionInputsFromForm,
  optionInputsFromPost,
  targetOptionsOf,
} from './compose-target-form'

/** A parsed form body (`parseBody({ all: true })`). */
export type FormBody = Record<string, string | File | (string | File)[]>

/** What the form shows: the values as typed, so a refused form comes back as it was. */
export interface ComposeValues {
  type: string
  accountIds: string[]
  mediaIds: string[]
  caption: string
  overrides: Record<string, string>
  threadParts: string
  firstComment: string
  replyToMicropostId: string
  quoteMicropostId: string
  linkUrl: string
  pinTitle: string
  boards: Record<string, string>
  privacy: Record<string, string>
  scheduledAt: string
  title: string
  destinations: Record<string, string>
  /** Per-target options as typed (compose-target-form.ts). */
  options: OptionInputs
  /** The post's labels (campaigns), and a new one to create by name. */
  labelIds: string[]
  newLabel: string
}

export const EMPTY_VALUES: ComposeValues = {
  type: 'IMAGE',
  accountIds: [],
  mediaIds: [],
  caption: '',
  overrides: {},
  threadParts: '',
  firstComment: '',
  replyToMicropostId: '',
  quoteMicropostId: '',
  linkUrl: '',
  pinTitle: '',
  boards: {},
  privacy: {},
  scheduledAt: '',
  title: '',
  destinations: {},
  options: { values: {}, types: {} },
  labelIds: [],
  newLabel: '',
}

/** The line that separates thread parts in the thread textarea. */
export const PART_SEPARATOR = '---'

const text = (v: FormBody[string] | undefined): string =>
  typeof v === 'string' ? v : Array.isArray(v) ? text(v[0]) : ''
const all = (v: FormBody[string] | undefined): string[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).filter((x): x is string => typeof x === 'string' && x !== '')

/** The fields named `<prefix>.<key>` with a non-empty value, by key. */
function keyed(body: FormBody, prefix: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(body)) {
    if (!name.startsWith(`${prefix}.`)) continue
    const v = text(value).trim()
    if (v !== '') out[name.slice(prefix.length + 1)] = v
  }
  return out
}

/** The form's values as typed. */
export function valuesFromForm(body: FormBody): ComposeValues {
  return {
    type: text(body.type) || 'IMAGE',
    accountIds: all(body.accountIds),
    mediaIds: all(body.mediaIds),
    caption: text(body.caption),
    overrides: keyed(body, 'override'),
    threadParts: text(body.threadParts),
    firstComment: text(body.firstComment),
    replyToMicropostId: text(body.replyToMicropostId).trim(),
    quoteMicropostId: text(body.quoteMicropostId).trim(),
    linkUrl: text(body.linkUrl).trim(),
    pinTitle: text(body.pinTitle),
    boards: keyed(body, 'board'),
    privacy: keyed(body, 'privacy'),
    scheduledAt: text(body.scheduledAt).trim(),
    title: text(body.title),
    destinations: keyed(body, 'destination'),
    options: optionInputsFromForm(Object.entries(body).map(([name, value]) => [name, text(value)])),
    labelIds: all(body.labelIds),
    newLabel: text(body.newLabel).trim(),
  }
}

/** The post's time, or the time its review round asked for (a post in review has none of its own yet). */
const scheduledOf = (post: PostRecord): string | null => post.scheduledAt ?? post.approval?.intent?.scheduledAt ?? null

/** A stored post as the form's values (editing a draft or a scheduled post). */
export function valuesFromPost(post: PostRecord, timeZone: string): ComposeValues {
  const privacy: Record<string, string> = {}
  for (const [id, o] of Object.entries(post.videoNetOptions ?? {})) if (o.privacyLevel) privacy[id] = o.privacyLevel
  return {
    type: post.type,
    accountIds: post.accountIds,
    mediaIds: post.mediaIds,
    caption: post.caption ?? '',
    overrides: { ...(post.captionOverrides ?? {}) } as Record<string, string>,
    threadParts: (post.threadParts ?? []).join(`\n${PART_SEPARATOR}\n`),
    firstComment: post.firstComment ?? '',
    replyToMicropostId: post.replyToMicropostId ?? '',
    quoteMicropostId: post.quoteMicropostId ?? '',
    linkUrl: post.linkUrl ?? '',
    pinTitle: post.pinboardNetOptions?.title ?? '',
    boards: { ...(post.pinboardNetBoards ?? {}) },
    privacy,
    scheduledAt: scheduledOf(post) ? toLocalInput(scheduledOf(post)!, timeZone) : '',
    title: post.title ?? '',
    destinations: { ...(post.destinations ?? {}) },
    options: optionInputsFromPost(post.targetOptions, timeZone),
    labelIds: (post.labels ?? []).map((l) => l.id),
    newLabel: '',
  }
}

const orNull = (v: string) => (v === '' ? null : v)
const recordOrNull = <T>(r: Record<string, T>) => (Object.keys(r).length === 0 ? null : r)

/** One problem, by body path (as the API names it). */
export interface FieldProblem {
  path: string
  message: string
}

/**
 * The post body of the form's values (every content field present, `null` where empty, so an edit
 * clears what was emptied) and the problems found before the API's checks (a time that is no time).
 */
export function bodyOfValues(
  v: ComposeValues,
  action: string,
  timeZone: string,
): { body: Record<string, unknown>; problems: FieldProblem[] } {
  const problems: FieldProblem[] = []
  const parts = splitThreadParts(v.threadParts, PART_SEPARATOR)
  const videoNetOptions = Object.fromEntries(
    Object.entries(v.privacy).map(([id, level]) => [id, { privacyLevel: level }]),
  )
  const body: Record<string, unknown> = {
    type: v.type,
    accountIds: v.accountIds,
    mediaIds: v.mediaIds,
    action,
    caption: orNull(v.caption),
    captionOverrides: recordOrNull(v.overrides),
    threadParts: parts.length ? parts : null,
    firstComment: orNull(v.firstComment.trim()),
    replyToMicropostId: orNull(v.replyToMicropostId),
    quoteMicropostId: orNull(v.quoteMicropostId),
    linkUrl: orNull(v.linkUrl),
    pinboardNetOptions: v.pinTitle.trim() === '' ? null : { title: v.pinTitle.trim() },
    pinboardNetBoards: recordOrNull(v.boards),
    videoNetOptions: recordOrNull(videoNetOptions),
    title: orNull(v.title.trim()),
    destinations: recordOrNull(v.destinations),
    targetOptions: targetOptionsOf(v.options, timeZone),
    labelIds: v.labelIds,
  }
  if (action === 'schedule' && v.scheduledAt !== '') {
    const at = fromLocalInput(v.scheduledAt, timeZone)
    if (at) body.scheduledAt = at
    else problems.push({ path: 'scheduledAt', message: 'Enter a date and time (YYYY-MM-DD HH:mm).' })
  }
  return { body, problems }
}

const SIMPLE_FIELDS = new Set([
  'type',
  'caption',
  'accountIds',
  'mediaIds',
  'threadParts',
  'firstComment',
  'replyToMicropostId',
  'quoteMicropostId',
  'linkUrl',
  'scheduledAt',
  'title',
])

/** The form control a body path concerns (its problems are shown beside it); `post` for the whole post. */
export function fieldOfPath(path: string): string {
  const [head, key, ...rest] = path.split('.')
  if (!head) return 'post'
  if (head === 'destinations' && key) return `destination-${key}`
  if (head === 'targetOptions' && key) return rest.length > 0 ? optionId(key, rest.join('.')) : 'post'
  if (head === 'captionOverrides' && key) return `override-${key}`
  if (head === 'pinboardNetBoards' && key) return `board-${key}`
  if (head === 'videoNetOptions' && key) return `privacy-${key}`
  if (head === 'pinboardNetOptions') return 'pinTitle'
  return SIMPLE_FIELDS.has(head) ? head : 'post'
}

/**
 * A service message as a member reads it beside a form control: networks by their names, no body paths
 * ("The MICROBLOG_NET caption (captionOverrides.MICROBLOG_NET)" reads "The microblog network caption").
 */
export function plainMessage(message: string): string {
  return message
    .replace(/ in captionOverrides\.[A-Z_]+/g, ' in its tab under "Caption per network"')
    .replace(
      / \((?:captionOverrides|threadParts|pinboardNetBoards|videoNetOptions|pinboardNetOptions|destinations|targetOptions)(?:\.[\w]+)*\)/g,
      '',
    )
    .replace(/\b[A-Z]+_NET\b/g, (id) => (id in RULES ? RULES[id as PlatformId].display.name : id))
}

/** Problems grouped by the form control they concern, each message naming its network when it has one. */
export function problemsByField(
  problems: ReadonlyArray<{ path: string; message: string; platform?: string | undefined }>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const p of problems) {
    const field = fieldOfPath(p.path)
    const named = p.platform && !p.message.includes(p.platform) ? `${p.platform}: ${p.message}` : p.message
    const message = plainMessage(named)
    const list = (out[field] ??= [])
    if (!list.includes(message)) list.push(message)
  }
  return out
}

/** Schema messages that read as a parser's, said the way a member reads them. */
const PLAIN_MESSAGES: Record<string, string> = { accountIds: 'Pick at least one account.' }

/** The zod problems of a body, as the API's 400 would name them. */
export function schemaProblems(error: {
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string; code?: string }>
}): FieldProblem[] {
  return error.issues.map((i) => {
    const path = i.path.map(String).join('.')
    const plain = i.code === 'too_small' ? PLAIN_MESSAGES[path] : undefined
    return { path, message: plain ?? i.message }
  })
}
