/** Sign-up, sign-in and sign-out: public forms with a double-submit CSRF token, sessions in an HttpOnly cookie. */
import type { Context, Hono } from 'hono'
import { AppError } from '../domain/errors'
import type { AppEnv } from '../http/context'
import { resolveSession, endSession, startSession } from '../services/people/sessions'
import { checkPassword, signUp } from '../services/people/users'
import { Csrf, Field, forbiddenPage, Message, PublicPage } from './pages'
import { countSignInAttempt } from './sign-in-limit'
import {
  clearSessionCookie,
  csrfMatches,
  FORM_COOKIE,
  formFields,
  formToken,
  sessionToken,
  setSessionCookie,
} from './session'
import { getCookie } from 'hono/cookie'

/** Where to go after signing in: only a dashboard path of ours (no open redirect). */
export const safeNext = (next: string | undefined): string =>
  next && /^\/app(\/[A-Za-z0-9_\-/.]*)?(\?[A-Za-z0-9_\-=&%.]*)?$/.test(next) && !next.includes('//') ? next : '/app'

function SignInForm(props: { csrf: string; next: string; email?: string; error?: string | null }) {
  return (
    <PublicPage title="Sign in">
      <Message kind="error" text={props.error} />
      <form method="post" action="/app/sign-in">
        <Csrf token={props.csrf} />
        <input type="hidden" name="next" value={props.next} />
        <Field name="email" label="Email" type="email" autocomplete="username" value={props.email} />
        <Field name="password" label="Password" type="password" autocomplete="current-password" />
        <button type="submit">Sign in</button>
      </form>
      <p>
        No account yet? <a href="/app/sign-up">Create one</a>
      </p>
    </PublicPage>
  )
}

/** Under every field where a password is chosen: the rule of src/domain/password-policy.ts in a sentence. */
export const NEW_PASSWORD_HINT =
  'A few unrelated words make a strong one. Common passwords, patterns such as 12345678 or qwerty, and your name, email or workspace name are refused.'

function SignUpForm(props: { csrf: string; values?: Record<string, string>; errors?: Record<string, string> }) {
  const v = props.values ?? {}
  const e = props.errors ?? {}
  return (
    <PublicPage title="Create your account">
      <Message kind="error" text={e._form} />
      <form method="post" action="/app/sign-up">
        <Csrf token={props.csrf} />
        <Field name="name" label="Your name" autocomplete="name" value={v.name} error={e.name} />
        <Field name="email" label="Email" type="email" autocomplete="email" value={v.email} error={e.email} />
        <Field
          name="password"
          label="Password (at least 8 characters)"
          type="password"
          autocomplete="new-password"
          hint={NEW_PASSWORD_HINT}
          error={e.password}
        />
        <Field name="workspaceName" label="Workspace name" value={v.workspaceName} required={false} error={e.name_ws} />
        <button type="submit">Create account</button>
      </form>
      <p>
        Already have an account? <a href="/app/sign-in">Sign in</a>
      </p>
    </PublicPage>
  )
}

/** The field errors of a refused form, by field name. */
export function fieldErrors(err: AppError): Record<string, string> {
  const out: Record<string, string> = {}
  for (const d of err.details ?? []) out[d.path] = d.message ?? err.message
  if (Object.keys(out).length === 0) out._form = err.message
  return out
}

/** A public form's double-submit check: the field must equal the cookie set when the form was shown. */
export const publicFormValid = (c: Context, fields: Record<string, string>) =>
  csrfMatches(getCookie(c, FORM_COOKIE), fields._csrf)

const staleForm = (c: Context) => forbiddenPage(c, 'This form expired. Go back, reload the page and try again.')

/** Starts a session for the user (the browser's previous one is revoked) and sets the cookie. */
export async function signInAs(c: Context<AppEnv>, userId: string): Promise<void> {
  const { db, clock } = c.var.deps
  setSessionCookie(c, await startSession(db, userId, clock.now(), sessionToken(c)))
}

/** Registers `/sign-in`, `/sign-up` and `/sign-out` on the dashboard app. */
export function registerAuthPages(app: Hono<AppEnv>): void {
  app.get('/sign-in', (c) => c.html(<SignInForm csrf={formToken(c)} next={safeNext(c.req.query('next'))} />))

  app.post('/sign-in', async (c) => {
    const fields = await formFields(c)
    if (!publicFormValid(c, fields)) return staleForm(c)
    const email = (fields.email ?? '').slice(0, 254)
    const next = safeNext(fields.next)
    const refusal = await countSignInAttempt(c, email)
    if (refusal) {
      c.header('Retry-After', String(refusal.retryAfterSec))
      return c.html(
        <SignInForm csrf={formToken(c)} next={next} email={email} error={refusal.message} />,
        refusal.status,
      )
    }
    const user = await checkPassword(c.var.deps.db, email, fields.password ?? '')
    if (!user) {
      const error = 'The email or the password is wrong.'
      return c.html(<SignInForm csrf={formToken(c)} next={next} email={email} error={error} />, 401)
    }
    await signInAs(c, user.id)
    return c.redirect(next, 303)
  })

  app.get('/sign-up', (c) => c.html(<SignUpForm csrf={formToken(c)} />))

  app.post('/sign-up', async (c) => {
    const fields = await formFields(c)
    if (!publicFormValid(c, fields)) return staleForm(c)
    const refusal = await countSignInAttempt(c)
    if (refusal) {
      c.header('Retry-After', String(refusal.retryAfterSec))
      return c.html(
        <SignUpForm csrf={formToken(c)} values={fields} errors={{ _form: refusal.message }} />,
        refusal.status,
      )
    }
    try {
      const { user, workspaceId } = await signUp(c.var.deps, {
        email: fields.email ?? '',
        name: fields.name ?? '',
        password: fields.password ?? '',
        workspaceName: fields.workspaceName ?? '',
      })
      await signInAs(c, user.id)
      return c.redirect(`/app/w/${workspaceId}`, 303)
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'invalid_request') throw err
      const values = { name: fields.name ?? '', email: fields.email ?? '', workspaceName: fields.workspaceName ?? '' }
      return c.html(<SignUpForm csrf={formToken(c)} values={values} errors={fieldErrors(err)} />, 400)
    }
  })

  app.post('/sign-out', async (c) => {
    const { db, clock } = c.var.deps
    const token = sessionToken(c)
    const session = token ? await resolveSession(db, token, clock.now()) : null
    if (session) {
      const fields = await formFields(c)
      if (!csrfMatches(session.csrfToken, fields._csrf)) return staleForm(c)
      await endSession(db, token!, clock.now())
    }
    clearSessionCookie(c)
    return c.redirect('/app/sign-in', 303)
  })
}
