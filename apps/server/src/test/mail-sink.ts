import { SMTPServer } from "smtp-server";

/** One message as the sink received it over SMTP. */
export interface SunkMail {
  /** Envelope recipients, lower-case. */
  to: string[];
  subject: string;
  /** The text/plain part, decoded. */
  text: string;
  /** The text/html part, decoded ("" when none). */
  html: string;
  raw: string;
}

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const body = s.replace(/=\r?\n/g, "");
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    const hex = body.slice(i + 1, i + 3);
    if (c === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(c ?? "", "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

/** RFC 2047 encoded words in a header (`=?UTF-8?Q?...?=` / `=?UTF-8?B?...?=`). */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replace(/_/g, " ")),
    );
}

function header(block: string, name: string): string {
  const unfolded = block.replace(/\r?\n[ \t]+/g, " ");
  const m = new RegExp(`^${name}:\\s*(.*)$`, "im").exec(unfolded);
  return m?.[1]?.trim() ?? "";
}

function decodePart(headers: string, body: string): string {
  const enc = header(headers, "Content-Transfer-Encoding").toLowerCase();
  if (enc === "quoted-printable") return decodeQuotedPrintable(body);
  if (enc === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

/** Splits a raw message into its text and HTML parts (single part or multipart/alternative). */
function parse(raw: string): { subject: string; text: string; html: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, split);
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const subject = decodeHeader(header(headers, "Subject"));
  const type = header(headers, "Content-Type");
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary === undefined) {
    const decoded = decodePart(headers, body);
    return /text\/html/i.test(type)
      ? { subject, text: "", html: decoded }
      : { subject, text: decoded, html: "" };
  }
  let text = "";
  let html = "";
  for (const part of body.split(`--${boundary}`)) {
    const at = part.search(/\r?\n\r?\n/);
    if (at < 0) continue;
    const h = part.slice(0, at);
    const b = part
      .slice(at)
      .replace(/^\r?\n\r?\n/, "")
      .replace(/\r?\n$/, "");
    const t = header(h, "Content-Type");
    if (/text\/plain/i.test(t)) text = decodePart(h, b);
    else if (/text\/html/i.test(t)) html = decodePart(h, b);
  }
  return { subject, text, html };
}

/**
 * A real SMTP server on a free local port that keeps what it receives: tests point
 * `SMTP_URL` at it and read codes from the messages, as a user would from their inbox.
 */
export class MailSink {
  readonly messages: SunkMail[] = [];
  readonly #server: SMTPServer;
  #port = 0;

  constructor() {
    this.#server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          this.messages.push({ to, raw, ...parse(raw) });
          callback();
        });
      },
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(0, "127.0.0.1", () => resolve());
    });
    const address = this.#server.server.address();
    this.#port = typeof address === "object" && address !== null ? address.port : 0;
    return this;
  }

  /** `smtp://127.0.0.1:<port>`: what the server's SMTP_URL should be. */
  get url(): string {
    return `smtp://127.0.0.1:${this.#port}`;
  }

  /** Messages to `recipient`, oldest first. */
  to(recipient: string): SunkMail[] {
    const r = recipient.toLowerCase();
    return this.messages.filter((m) => m.to.includes(r));
  }

  /** The newest message to `recipient`, waiting up to `timeoutMs` for one that `match` accepts. */
  async next(recipient: string, match: (m: SunkMail) => boolean = () => true, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.to(recipient).filter(match).at(-1);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`no matching mail to ${recipient}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * The 6-digit code of the newest code message to `recipient` that arrived after `after`
   * messages had (pass `sink.to(addr).length` taken before the request).
   */
  async code(recipient: string, after = 0, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const fresh = this.to(recipient).slice(after);
      for (let i = fresh.length - 1; i >= 0; i--) {
        // The last six digits: an anti-phishing code, which may be digits too, comes first.
        const code = [...(fresh[i]?.text ?? "").matchAll(/\b(\d{6})\b/g)].at(-1)?.[1];
        if (code !== undefined) return code;
      }
      if (Date.now() > deadline) throw new Error(`no code mailed to ${recipient}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
