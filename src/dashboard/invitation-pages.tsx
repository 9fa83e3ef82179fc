/**
 * `/app/invitations/{token}`: the page an invitation link opens. A signed-in user joins with one button;
 * someone new creates their account on the same page; a used, expired or withdrawn link says so.
 */
import type { Context, Hono } from 'hono'
import { AppError } from '../domain/errors'
import type { AppEnv } from '../http/context'
import { acceptInvitation, inspectInvitation, invitationProblem } from '../services/people/invitations'
import { type LiveSession, resolveSession } from '../services/people/sessions'
import { insertPreparedUser, prepareUser } from '../services/people/users'
import { fieldErrors, NEW_PASSWORD_HINT, publicFormValid, signInAs } from './auth'
import { Csrf, Field, forbiddenPage, Message, PublicPage } from './pages'
import { csrfMatches, formFields, formToken, sessionToken } from './session'
import { countSignInAttempt } from './sign-in-limit'

async function currentSession(c: Context<AppEnv>): Promise<LiveSession | null> {
  const token = sessionToken(c)
  return token ? resolveSession(c.var.deps.db, token, c.var.deps.clock.now()) : null
}

function InvitationPage(props: {
  token: string
  workspaceName: string
  role: string
  session: LiveSession | null
  csrf: string
  values?: Record<string, string>
  errors?: Record<string, string>
}) {
  const action = `/app/invitations/${props.token}`
  const e = props.errors ?? {}
  return (
    <PublicPage title={`Join ${props.workspaceName}`}>
      <p>
        You are invited to the workspace <strong>{props.workspaceName}</strong> as <strong>{props.role}</strong>.
      </p>
      <Message kind="error" text={e._form} />
      {props.session ? (
        <form method="post" action={action}>
          <Csrf token={props.csrf} />
          <p>Signed in as {props.session.email}.</p>
          <button type="submit">Join {props.workspaceName}</button>
        </form>
      ) : (
        <>
          <p>
            Already have an account? <a href={`/app/sign-in?next=${encodeURIComponent(action)}`}>Sign in to accept</a>
          </p>
          <h2>Create an account</h2>
          <form method="post" action={action}>
            <Csrf token={props.csrf} />
            <Field name="name" label="Your name" autocomplete="name" value={props.values?.name} error={e.name} />
            <Field
              name="email"
              label="Email"
              type="email"
              autocomplete="email"
              value={props.values?.email}
              error={e.email}
            />
            <Field
              name="password"
              label="Password (at least 8 characters)"
              type="password"
              autocomplete="new-password"
              hint={NEW_PASSWORD_HINT}
              error={e.password}
            />
            <button type="submit">Create account and join</button>
          </form>
        </>
      )}
    </PublicPage>
  )
}

const problemPage = (c: Context, state: 'used' | 'expired' | 'revoked' | 'unknown') =>
  c.html(
    <PublicPage title="Invitation not usable">
      <p>{invitationProblem(state)}</p>
      <p>
        <a href="/app">Go to the dashboard</a>
      </p>
    </PublicPage>,
    state === 'unknown' ? 404 : 410,
  )

/** Registers the invitation page and its form. */
export function registerInvitationPages(app: Hono<AppEnv>): void {
  app.get('/invitations/:token', async (c) => {
    const { db, clock } = c.var.deps
    const found = await inspectInvitation(db, c.req.param('token'), clock.now())
    if (found.state !== 'valid') return problemPage(c, found.state)
    const session = await currentSession(c)
    const csrf = session ? session.csrfToken : formToken(c)
    const token = c.req.param('token')
    return c.html(
      <InvitationPage
        token={token}
        workspaceName={found.workspaceName}
        role={found.role}
        session={session}
        csrf={csrf}
      />,
    )
  })

  app.post('/invitations/:token', async (c) => {
    const { db, clock } = c.var.deps
    const token = c.req.param('token')
    const found = await inspectInvitation(db, token, clock.now())
    if (found.state !== 'valid') return problemPage(c, found.state)
    const fields = await formFields(c)
    const session = await currentSession(c)
    const render = (errors: Record<string, string>, status: 400 | 403 | 429 | 503) =>
      c.html(
        <InvitationPage
          token={token}
          workspaceName={found.workspaceName}
          role={found.role}
          session={session}
          csrf={session ? session.csrfToken : formToken(c)}
          values={{ name: fields.name ?? '', email: fields.email ?? '' }}
          errors={errors}
        />,
        status,
      )
    try {
      if (session) {
        if (!csrfMatches(session.csrfToken, fields._csrf))
          return forbiddenPage(c, 'This form expired; reload the page.')
        const { workspaceId } = await acceptInvitation(db, token, session.userId, clock.now(), { ip: c.var.clientIp })
        return c.redirect(`/app/w/${workspaceId}`, 303)
      }
      if (!publicFormValid(c, fields)) return forbiddenPage(c, 'This form expired; reload the page.')
      const refusal = await countSignInAttempt(c)
      if (refusal) {
        c.header('Retry-After', String(refusal.retryAfterSec))
        return render({ _form: refusal.message }, refusal.status)
      }
      const prepared = await prepareUser(c.var.deps, {
        email: fields.email ?? '',
        name: fields.name ?? '',
        password: fields.password ?? '',
        workspaceName: found.workspaceName,
      })
      // The account and its membership together: no account is left behind when the seats are taken.
      const { user, workspaceId } = await db.transaction(async (tx) => {
        const created = await insertPreparedUser(tx, prepared)
        return {
          user: created,
          ...(await acceptInvitation(tx, token, created.id, clock.now(), { ip: c.var.clientIp })),
        }
      })
      await signInAs(c, user.id)
      return c.redirect(`/app/w/${workspaceId}`, 303)
    } catch (err) {
      if (!(err instanceof AppError)) throw err
      if (err.code === 'plan_limit_reached') return render({ _form: err.message }, 403)
      if (err.code === 'invalid_request') return render(fieldErrors(err), 400)
      throw err
    }
  })
}
