import type { FastifyServerOptions } from "fastify";
import type { AccountsService, MailLog } from "../modules/accounts/index.ts";

/** One message the accounts module's log transport wrote (no SMTP_URL: development and demo mode). */
export interface LoggedMessage {
  channel: "email" | "sms";
  /** The recipient, lower-case (`+<area><number>` for SMS). */
  to: string;
  subject: string;
  /** The log line's message: the transport's header line, then the message text. */
  text: string;
}

interface MailLine {
  mail?: { channel?: string; to?: string; subject?: string };
  msg?: string;
}

/**
 * The development outbox as tests read it: without `SMTP_URL` the accounts module writes
 * every message, code included, to the server log (`LogTransport`, docs/accounts.md "Mail").
 * An app built with `logger: outbox.logger` (or a service whose `LogTransport` writes to
 * `outbox.log`) lands its messages here, where a test reads codes as whoever runs the
 * server reads them from the log.
 */
export class LogOutbox {
  readonly messages: LoggedMessage[] = [];

  constructor() {
    live.push(new WeakRef(this));
  }

  /** A `MailLog` for `new LogTransport(outbox.log)`. */
  readonly log: MailLog = {
    info: (obj, msg) => this.#take(obj as MailLine, msg),
    warn: () => undefined,
  };

  /**
   * Fastify's `logger` option: the app's log lines go through here and the mail lines are
   * kept (level info: the log transport writes at info).
   */
  get logger(): FastifyServerOptions["logger"] {
    return this.loggerEchoing(undefined);
  }

  /**
   * A caller's own `logger` option, its lines also read here when it writes to a `stream`
   * at level info or below (as is); anything else is returned unchanged (no outbox).
   */
  tee(logger: FastifyServerOptions["logger"]): FastifyServerOptions["logger"] {
    if (typeof logger !== "object" || logger === null || !("stream" in logger)) return logger;
    const stream = logger.stream as { write(line: string): unknown } | undefined;
    if (stream === undefined) return logger;
    return {
      ...logger,
      stream: {
        write: (line: string) => {
          this.#line(line);
          return stream.write(line);
        },
      },
    };
  }

  #line(line: string): void {
    if (!line.includes('"mail"')) return;
    const parsed = JSON.parse(line) as MailLine;
    this.#take(parsed, parsed.msg ?? "");
  }

  /** `logger`, also writing lines of level warn and above to `echo` (a process's stderr). */
  loggerEchoing(echo: { write(line: string): unknown } | undefined): FastifyServerOptions["logger"] {
    return {
      level: "info",
      // Only mail lines (and warnings for `echo`) are written at all: a busy app (market
      // feed, request logs) then costs no serialising.
      hooks: {
        logMethod(args: unknown[], method: (...a: unknown[]) => void, level: number) {
          const first = args[0];
          const mail = typeof first === "object" && first !== null && "mail" in first;
          if (mail || (echo !== undefined && level >= 40)) method.apply(this, args);
        },
      },
      stream: {
        write: (line: string) => {
          if (echo !== undefined && Number((JSON.parse(line) as { level?: number }).level) >= 40)
            echo.write(line);
          this.#line(line);
        },
      },
    };
  }

  #take(line: MailLine, msg: string): void {
    const m = line.mail;
    if (m?.to === undefined) return;
    this.messages.push({
      channel: m.channel === "sms" ? "sms" : "email",
      to: m.to.toLowerCase(),
      subject: m.subject ?? "",
      text: msg,
    });
  }

  /** Messages to `recipient`, oldest first. */
  to(recipient: string): LoggedMessage[] {
    const r = recipient.toLowerCase();
    return this.messages.filter((m) => m.to === r);
  }

  /**
   * The 6-digit code of the newest code message to `recipient` after the first `after`
   * messages to it. The log transport writes before the call that sends returns, so there
   * is nothing to wait for: no code is an error.
   */
  code(recipient: string, after = 0): string {
    const fresh = this.to(recipient).slice(after);
    for (let i = fresh.length - 1; i >= 0; i--) {
      // The message text follows the header line (which names the recipient); the last six
      // digits: an anti-phishing code, which may be digits too, comes first.
      const body = (fresh[i]?.text ?? "").split("\n").slice(1).join("\n");
      const code = [...body.matchAll(/\b(\d{6})\b/g)].at(-1)?.[1];
      if (code !== undefined) return code;
    }
    throw new Error(`no code in the log for ${recipient}`);
  }
}

/** Every outbox of this test process still in use: `outboxWithMailTo` searches them. */
const live: WeakRef<LogOutbox>[] = [];

/**
 * The newest outbox holding a message to `recipient`: for a service whose outbox was not
 * recorded (an app's accounts module is known only once the app is ready), found by the
 * address, which the helpers make unique.
 */
export function outboxWithMailTo(recipient: string): LogOutbox | undefined {
  for (let i = live.length - 1; i >= 0; i--) {
    const outbox = live[i]?.deref();
    if (outbox === undefined) live.splice(i, 1);
    else if (outbox.to(recipient).length > 0) return outbox;
  }
  return undefined;
}

/** Where each test service's messages can be read (see `readsMailOf`). */
const outboxes = new WeakMap<AccountsService, LogOutbox>();

/**
 * Tells the login helpers where `service` writes its messages, so they can answer the
 * e-mail code a login from a new device asks for. `buildTestApp` (hence `accountsTestApp`)
 * and `testAccountsService` do it; call it for a service built another way.
 */
export function readsMailOf(service: AccountsService, outbox: LogOutbox): void {
  outboxes.set(service, outbox);
}

/** The outbox `readsMailOf` recorded for `service`. */
export function outboxOf(service: AccountsService): LogOutbox | undefined {
  return outboxes.get(service);
}
