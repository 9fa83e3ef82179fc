/** Sending email: the port the notification sender uses (services/notifications/email-sender.ts). */
export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
}

export interface Mailer {
  /** The sender address (MAIL_FROM). */
  readonly from: string
  /** Resolves once the server accepted the message; rejects with a `MailError` when it did not. */
  send(message: MailMessage): Promise<void>
  close(): void
}

/** Why a message was not accepted, in words, without the server's address or credentials. */
export class MailError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MailError'
  }
}
