import nodemailer, { type Transporter } from "nodemailer";
import { maskAddress } from "./mask.ts";

export interface OutgoingMessage {
  channel: "email" | "sms";
  /** Email address, or `+<area><number>` for SMS. */
  recipient: string;
  subject: string;
  text: string;
  /** E-mail only. */
  html?: string;
}

/** Where account messages go: SMTP, the server log (development and demo), or nowhere. */
export interface MessageTransport {
  send(message: OutgoingMessage): Promise<void>;
}

/** The logger calls the transports make (a pino / Fastify logger fits). */
export interface MailLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Development and demo mode without SMTP: each message is written to the server log, which
 * only whoever runs the server can read (never a page).
 */
export class LogTransport implements MessageTransport {
  readonly #log: MailLog;

  constructor(log: MailLog) {
    this.#log = log;
  }

  async send(m: OutgoingMessage): Promise<void> {
    this.#log.info(
      { mail: { channel: m.channel, to: m.recipient, subject: m.subject } },
      `${m.channel === "sms" ? "SMS" : "E-mail"} to ${m.recipient} (not sent: written to the log in development and demo mode)\n${m.text}`,
    );
  }
}

/**
 * Production without SMTP and outside demo mode: nothing can be delivered, and the codes
 * must not reach a log, so only the fact is logged.
 */
export class DroppingTransport implements MessageTransport {
  readonly #log: MailLog;

  constructor(log: MailLog) {
    this.#log = log;
  }

  async send(m: OutgoingMessage): Promise<void> {
    this.#log.warn(
      { mail: { channel: m.channel, to: maskAddress(m.recipient) } },
      "message dropped: set SMTP_URL (or run in demo mode) to deliver account messages",
    );
  }
}

/**
 * E-mail through SMTP (SMTP_URL). SMS has no gateway in this product: SMS messages go to
 * the fallback (the log in demo mode), so phone sign-up stays usable there.
 */
export class SmtpTransport implements MessageTransport {
  readonly #mailer: Transporter;
  readonly #from: string;
  readonly #fallback: MessageTransport;

  constructor(smtpUrl: string, from: string, fallback: MessageTransport) {
    this.#mailer = nodemailer.createTransport(smtpUrl);
    this.#from = from;
    this.#fallback = fallback;
  }

  async send(m: OutgoingMessage): Promise<void> {
    if (m.channel !== "email") return this.#fallback.send(m);
    await this.#mailer.sendMail({
      from: this.#from,
      to: m.recipient,
      subject: m.subject,
      text: m.text,
      ...(m.html === undefined ? {} : { html: m.html }),
    });
  }
}
