/** The mailer over SMTP with nodemailer (Node). The URL (`smtp://` or `smtps://`) carries host, port and login. */
import nodemailer from 'nodemailer'
import { MailError, type Mailer, type MailMessage } from './types'

export interface SmtpOptions {
  url: string
  from: string
  /** Connection, greeting and socket time limits (default 15 s each). */
  timeoutMs?: number
}

export function createSmtpMailer(options: SmtpOptions): Mailer {
  const timeout = options.timeoutMs ?? 15_000
  const transport = nodemailer.createTransport({
    url: options.url,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  } as Parameters<typeof nodemailer.createTransport>[0])
  return {
    from: options.from,
    async send(message: MailMessage) {
      try {
        await transport.sendMail({ from: options.from, ...message })
      } catch (error) {
        throw describeSmtpError(error)
      }
    },
    close: () => transport.close(),
  }
}

/** An SMTP failure in words: the server's answer code and text, or what went wrong with the connection. */
export function describeSmtpError(error: unknown): MailError {
  const e = (error ?? {}) as { code?: string; responseCode?: number; response?: string; message?: string }
  if (typeof e.responseCode === 'number') {
    const answer = (e.response ?? '').replace(/\s+/g, ' ').slice(0, 300)
    return new MailError(`The mail server refused the message (${e.responseCode}): ${answer}`)
  }
  const reasons: Record<string, string> = {
    ECONNECTION: 'The mail server could not be reached',
    ETIMEDOUT: 'The mail server did not answer in time',
    EDNS: 'The mail server’s name could not be resolved',
    EAUTH: 'The mail server did not accept the login of SMTP_URL',
    ETLS: 'The secure connection to the mail server failed',
    ESOCKET: 'The connection to the mail server failed',
  }
  const reason = (e.code && reasons[e.code]) ?? 'Sending the email failed'
  return new MailError(`${reason}.`)
}
