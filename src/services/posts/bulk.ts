import { parse } from 'csv-parse/sync'
import type { Deps } from '../../deps'
import { AppError, type ErrorCode, type ErrorDetail } from '../../domain/errors'
import { describeError } from '../../infra/logger'
import { createPost } from './create'
import type { WorkspaceScope } from '../activity/scope'
import type { CreatePostInput } from './types'

/** Documented caps of POST /v1/posts/bulk (413 beyond either). */
export const BULK_MAX_CSV_BYTES = 512 * 1024
export const BULK_MAX_ROWS = 500

/** The CSV columns (docs/decisions.md, "Bulk CSV"); any order, no others, `accountIds` required. */
export const BULK_COLUMNS = [
  'accountIds',
  'caption',
  'type',
  'action',
  'scheduledAt',
  'mediaIds',
  'firstComment',
  'linkUrl',
  'threadParts',
  'captionOverrides',
  'title',
  'destinations',
  'targetOptions',
] as const
type Column = (typeof BULK_COLUMNS)[number]

export interface BulkRowError {
  code: ErrorCode
  message: string
  details?: ErrorDetail[]
}

export interface BulkRowReport {
  line: number
  ok: boolean
  postId: string | null
  error: BulkRowError | null
}

export interface BulkReport {
  total: number
  succeeded: number
  failed: number
  rows: BulkRowReport[]
}

interface ParsedRow {
  line: number
  values: Partial<Record<Column, string>>
  /** Fields in the row, against the header's count: a mismatch is that row's error alone. */
  fields: number
  expected: number
}

const list = (v: string | undefined) =>
  v
    ? v
        .split('|')
        .map((s) => s.trim())
        .filter(Boolean)
    : []
const text = (v: string | undefined) => (v === undefined || v === '' ? undefined : v)

function readCsv(csv: string): ParsedRow[] {
  if (new TextEncoder().encode(csv).length > BULK_MAX_CSV_BYTES) {
    throw new AppError(
      'payload_too_large',
      `The CSV is larger than ${BULK_MAX_CSV_BYTES} bytes; split it into several requests.`,
      {
        details: [{ path: 'csv', limit: BULK_MAX_CSV_BYTES }],
      },
    )
  }
  let records: Array<{ record: string[]; info: { lines: number } }>
  try {
    // RFC 4180: quoted fields may hold commas, quotes ("") and line breaks.
    records = parse(csv, {
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      bom: true,
    }) as unknown as typeof records
  } catch (err) {
    const where = (err as { lines?: number }).lines
    throw new AppError(
      'invalid_request',
      `The CSV cannot be read${where ? ` (near line ${where})` : ''}: ${(err as Error).message.replace(/^Invalid Record Length: /, '')}`,
      {
        details: [{ path: 'csv', ...(where ? { line: where } : {}) }],
      },
    )
  }
  const [header, ...rows] = records
  if (!header)
    throw new AppError('invalid_request', 'The CSV is empty; it needs a header row.', { details: [{ path: 'csv' }] })
  const columns = header.record.map((c) => c.trim())
  const unknown = columns.filter((c) => !(BULK_COLUMNS as readonly string[]).includes(c))
  const repeated = columns.filter((c, i) => columns.indexOf(c) !== i)
  if (unknown.length > 0 || repeated.length > 0 || !columns.includes('accountIds')) {
    const details: ErrorDetail[] = [
      ...unknown.map((c) => ({
        path: 'csv',
        column: c,
        message: `unknown column "${c}"; columns: ${BULK_COLUMNS.join(', ')}`,
      })),
      ...repeated.map((c) => ({ path: 'csv', column: c, message: `column "${c}" appears twice` })),
      ...(columns.includes('accountIds')
        ? []
        : [{ path: 'csv', column: 'accountIds', message: 'the accountIds column is required' }]),
    ]
    throw new AppError('invalid_request', `The CSV header is not valid: ${details.map((d) => d.message).join('; ')}.`, {
      details,
    })
  }
  if (rows.length > BULK_MAX_ROWS) {
    throw new AppError(
      'payload_too_large',
      `The CSV has ${rows.length} rows; at most ${BULK_MAX_ROWS} are taken per request.`,
      {
        details: [{ path: 'csv', limit: BULK_MAX_ROWS, actual: rows.length }],
      },
    )
  }
  return rows.map(({ record, info }) => ({
    // info.lines is where the record ends; a quoted field may span lines, so count back to its start.
    line: info.lines - (record.join(',').split(/\r\n|\r|\n/).length - 1),
    values: Object.fromEntries(columns.map((c, i) => [c, record[i]])) as Partial<Record<Column, string>>,
    fields: record.length,
    expected: columns.length,
  }))
}

/** A CSV row as the body of POST /v1/posts; 400-style problems are reported per row. */
function rowToInput(values: Partial<Record<Column, string>>): CreatePostInput {
  const captionOverrides = jsonCell(values, 'captionOverrides') as CreatePostInput['captionOverrides']
  const destinations = jsonCell(values, 'destinations') as CreatePostInput['destinations']
  const targetOptions = jsonCell(values, 'targetOptions') as CreatePostInput['targetOptions']
  const scheduledAt = text(values.scheduledAt)
  return {
    accountIds: list(values.accountIds),
    mediaIds: list(values.mediaIds),
    type: (text(values.type) ?? 'IMAGE') as CreatePostInput['type'],
    action: (text(values.action) ?? (scheduledAt ? 'schedule' : 'draft')) as CreatePostInput['action'],
    caption: text(values.caption),
    scheduledAt,
    firstComment: text(values.firstComment),
    linkUrl: text(values.linkUrl),
    threadParts: values.threadParts ? list(values.threadParts) : undefined,
    captionOverrides,
    title: text(values.title),
    destinations,
    targetOptions,
  }
}

/** A cell holding a JSON object (a map by platform or by account id); absent when empty. */
function jsonCell(values: Partial<Record<Column, string>>, column: Column): unknown {
  if (!text(values[column])) return undefined
  try {
    return JSON.parse(values[column]!)
  } catch {
    throw new AppError('invalid_request', `${column} is not a JSON object.`, { details: [{ path: column }] })
  }
}

type RowCheck = { ok: true; value: CreatePostInput } | { ok: false; details: ErrorDetail[] }

/**
 * Creates one post per CSV row through the same service as POST /v1/posts, each in its own
 * transaction, so one bad row never stops the others; each is in the activity log as the caller's
 * `post.created`.
 */
export async function createPostsFromCsv(
  deps: Pick<Deps, 'db' | 'clock' | 'publishQueue' | 'logger' | 'cipher' | 'networks' | 'webhookQueue' | 'settings'>,
  scope: WorkspaceScope,
  csv: string,
  validate: (input: unknown) => Promise<RowCheck> | RowCheck,
): Promise<BulkReport> {
  const rows = readCsv(csv)
  const reports: BulkRowReport[] = []
  for (const row of rows) {
    try {
      if (row.fields !== row.expected) {
        throw new AppError(
          'invalid_request',
          `Line ${row.line} has ${row.fields} fields; the header has ${row.expected}.`,
          { details: [{ path: 'csv', line: row.line }] },
        )
      }
      // The caller's checks (its schema; a limited member's groups, refused as this row's error).
      const checked = await validate(rowToInput(row.values))
      if (!checked.ok)
        throw new AppError(
          'invalid_request',
          `Invalid row: ${checked.details.map((d) => `${d.path}: ${d.message}`).join('; ')}`,
          { details: checked.details },
        )
      const post = await createPost(deps, scope, checked.value)
      reports.push({ line: row.line, ok: true, postId: post.id, error: null })
    } catch (err) {
      // Rows before this one are committed: an unexpected failure is this row's report, never the whole answer's.
      if (!(err instanceof AppError)) {
        deps.logger.error('bulk_row_failed', { line: row.line, ...describeError(err) })
        reports.push({
          line: row.line,
          ok: false,
          postId: null,
          error: {
            code: 'internal_error',
            message: 'This row could not be saved because of an error on our side; send it again.',
          },
        })
        continue
      }
      reports.push({
        line: row.line,
        ok: false,
        postId: null,
        error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) },
      })
    }
  }
  const succeeded = reports.filter((r) => r.ok).length
  return { total: reports.length, succeeded, failed: reports.length - succeeded, rows: reports }
}
