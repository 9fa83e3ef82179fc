/**
 * Notes on a post: the team's internal discussion beside it (never published). Each note with its
 * author and time, the members it mentions highlighted; a form to add one, where typing `@` offers
 * the workspace's members (`client/notes.ts`, a listbox driven by the keyboard too); a Delete button
 * on one's own notes (and on any, for owners and admins). Without a script, `@Name` in the text is
 * still read as a mention by the route (`mentionsIn`).
 */
import type { Child } from 'hono/jsx'
import { CsrfField, ZonedTime } from './shared'

export interface NoteView {
  id: string
  author: { name: string }
  authorUserId: string | null
  body: string
  mentions: string[]
  createdAt: string
}

export interface MemberOption {
  userId: string
  name: string
}

export interface NotesPanelProps {
  notes: NoteView[]
  members: MemberOption[]
  userId: string
  /** Owners and admins delete anyone's note. */
  manages: boolean
  /** The role may write notes (`comment`). */
  comments: boolean
  csrfToken: string
  /** Where the forms post: `/posts/{id}/notes` (+ `/{noteId}/delete`). */
  action: string
  /** The page to come back to after a form. */
  back: string
  timeZone: string
}

/** The user ids of the members named `@Name` in a note (longest names first, so "@Ann Lee" beats "@Ann"). */
export function mentionsIn(body: string, members: MemberOption[]): string[] {
  const found = new Set<string>()
  const lower = body.toLowerCase()
  for (const m of [...members].sort((a, b) => b.name.length - a.name.length)) {
    if (m.name && lower.includes(`@${m.name.toLowerCase()}`)) found.add(m.userId)
  }
  return [...found]
}

/** The note's text with each mention of a member it names marked (text nodes only, never markup). */
export function NoteBody({ body, names }: { body: string; names: string[] }) {
  const tokens = names.filter(Boolean).map((n) => `@${n}`)
  if (tokens.length === 0) return <p class="note-body">{body}</p>
  const parts: Child[] = []
  let rest = body
  while (rest.length > 0) {
    const lower = rest.toLowerCase()
    let at = -1
    let hit = ''
    for (const t of tokens) {
      const i = lower.indexOf(t.toLowerCase())
      if (i >= 0 && (at < 0 || i < at || (i === at && t.length > hit.length))) {
        at = i
        hit = t
      }
    }
    if (at < 0) {
      parts.push(rest)
      break
    }
    if (at > 0) parts.push(rest.slice(0, at))
    parts.push(<mark class="mention">{rest.slice(at, at + hit.length)}</mark>)
    rest = rest.slice(at + hit.length)
  }
  return <p class="note-body">{parts}</p>
}

function NoteItem(props: NotesPanelProps & { note: NoteView }) {
  const { note } = props
  const names = props.members.filter((m) => note.mentions.includes(m.userId)).map((m) => m.name)
  const own = note.authorUserId === props.userId
  return (
    <li class={`note${own ? ' note-own' : ''}`} id={`note-${note.id}`}>
      <p class="note-head">
        <strong>{note.author.name}</strong> <ZonedTime at={note.createdAt} timeZone={props.timeZone} />
      </p>
      <NoteBody body={note.body} names={names} />
      {own || props.manages ? (
        <form method="post" action={`${props.action}/${note.id}/delete`} class="note-delete">
          <CsrfField token={props.csrfToken} />
          <input type="hidden" name="back" value={props.back} />
          <button type="submit" class="btn btn-ghost">
            Delete<span class="visually-hidden"> this note</span>
          </button>
        </form>
      ) : null}
    </li>
  )
}

export function NotesPanel(props: NotesPanelProps) {
  return (
    <section class="post-section notes-panel" aria-labelledby="notes-title" id="notes">
      <h2 id="notes-title">
        Notes <span class="muted">(only your team sees them)</span>
      </h2>
      {props.notes.length === 0 ? (
        <p class="notes-empty">No notes yet. Ask a question or leave a hint for whoever picks this up.</p>
      ) : (
        <ol class="notes">
          {props.notes.map((note) => (
            <NoteItem {...props} note={note} />
          ))}
        </ol>
      )}
      {props.comments ? (
        <form method="post" action={props.action} class="note-form" data-notes>
          <CsrfField token={props.csrfToken} />
          <input type="hidden" name="back" value={props.back} />
          <label for="note-body">Add a note</label>
          <div class="mention-field">
            <textarea
              id="note-body"
              name="body"
              rows={3}
              required
              maxLength={5000}
              aria-describedby="note-hint"
              data-mention-input
            ></textarea>
            <div class="mention-list" role="listbox" id="mention-list" aria-label="Members to mention" hidden>
              {props.members.map((m) => (
                <div
                  role="option"
                  tabIndex={-1}
                  aria-selected="false"
                  id={`mention-${m.userId}`}
                  data-user={m.userId}
                  data-name={m.name}
                >
                  {m.name}
                </div>
              ))}
            </div>
          </div>
          <p id="note-hint" class="hint">
            Type @ to mention someone: they are told about it.
          </p>
          <button type="submit">Add note</button>
        </form>
      ) : null}
    </section>
  )
}
