import crypto from "node:crypto";
import nodemailer, { type Transporter } from "nodemailer";
import type { Db } from "../../platform/db/types.ts";

export interface OutgoingMessage {
  channel: "email" | "sms";
  /** Email address, or `+<area><number>` for SMS. */
  recipient: string;
  subject: string;
  body: string;
}

/** Where verification codes go: the dev outbox table, SMTP, or (in tests) memory. */
export interface MessageTransport {
  send(message: OutgoingMessage): Promise<void>;
}

export interface OutboxEntry extends OutgoingMessage {
  id: string;
  createdAt: number;
}

/** Default transport: messages land in a table shown by `GET /v1/dev/outbox` outside production. */
export class OutboxTransport implements MessageTransport {
  readonly #db: Db;
  readonly #now: () => number;

  constructor(db: Db, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  async send(m: OutgoingMessage): Promise<void> {
    await this.#db.run(
      "INSERT INTO message_outbox (id, channel, recipient, subject, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      [crypto.randomUUID(), m.channel, m.recipient, m.subject, m.body, this.#now()],
    );
  }

  async list(recipient: string | undefined, limit: number): Promise<OutboxEntry[]> {
    const rows = await this.#db.all<{
      id: string;
      channel: string;
      recipient: string;
      subject: string;
      body: string;
      created_at: number;
    }>(
      recipient === undefined
        ? "SELECT * FROM message_outbox ORDER BY created_at DESC LIMIT ?"
        : "SELECT * FROM message_outbox WHERE recipient = ? ORDER BY created_at DESC LIMIT ?",
      recipient === undefined ? [limit] : [recipient, limit],
    );
    return rows.map((r) => ({
      id: r.id,
      channel: r.channel === "sms" ? "sms" : "email",
      recipient: r.recipient,
      subject: r.subject,
      body: r.body,
      createdAt: Number(r.created_at),
    }));
  }
}

/**
 * Email through SMTP (SMTP_URL). SMS has no gateway in this product: SMS messages still
 * go to the outbox so phone registration stays testable.
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
    await this.#mailer.sendMail({ from: this.#from, to: m.recipient, subject: m.subject, text: m.body });
  }
}
