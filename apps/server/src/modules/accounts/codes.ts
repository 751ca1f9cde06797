import crypto from "node:crypto";
import { type AttemptLimiter, throttledError } from "../../platform/attempts/index.ts";
import { sendIpCounter, sendRecipientCounter } from "./limits.ts";
import { type MailKind, renderMail } from "./mail-templates.ts";
import type { AccountsRepo } from "./repo.ts";
import { hmacHex, newNumericCode, safeEqualHex } from "./secrets.ts";
import type { MessageTransport } from "./transport.ts";

export { maskAddress } from "./mask.ts";

export const CODE_TTL_MS = 10 * 60_000;
/** Checks one code allows; each is counted on the code's row before the comparison. */
export const MAX_CODE_ATTEMPTS = 5;

export type CodePurpose =
  | "register"
  | "login"
  | "bind"
  | "reset"
  | "password"
  | "antiPhishing"
  | "changeEmail"
  | "changePhone"
  | "unbindGoogle";

/** Who reads a message: its language and, once set, the anti-phishing code it must carry. */
export interface Reader {
  locale: string;
  antiPhishingCode: string;
}

export interface CodeTarget {
  channel: "email" | "sms";
  /** Normalised: lower-case email, or `+<area><number>`. */
  address: string;
}

/** One-time 6-digit codes, stored as HMACs with a server key (six digits are trivial to reverse from a plain hash). */
export class VerificationCodes {
  readonly #repo: AccountsRepo;
  readonly #transport: MessageTransport;
  readonly #key: Buffer;
  readonly #now: () => number;
  readonly #limiter: AttemptLimiter;

  constructor(
    repo: AccountsRepo,
    transport: MessageTransport,
    key: Buffer,
    now: () => number,
    limiter: AttemptLimiter,
  ) {
    this.#repo = repo;
    this.#transport = transport;
    this.#key = key;
    this.#now = now;
    this.#limiter = limiter;
  }

  #hash(target: CodeTarget, purpose: CodePurpose, code: string): string {
    return hmacHex(this.#key, `${purpose}\n${target.address}\n${code}`);
  }

  /**
   * Sends a fresh code. Counted per recipient always, and per client address when `ip` is
   * given (public send endpoints): over either limit it throws 429 and nothing is sent.
   * With `existing`, the "you already have an account" notice instead (and a code nobody
   * can know is stored, so the limits behave the same).
   */
  async send(
    target: CodeTarget,
    purpose: CodePurpose,
    reader: Reader,
    options: { ip?: string | undefined; existing?: boolean } = {},
  ): Promise<void> {
    const existing = options.existing === true;
    const now = this.#now();
    await this.#limiter.spend([
      ...(options.ip === undefined ? [] : [sendIpCounter(options.ip)]),
      sendRecipientCounter(target.address),
    ]);
    const code = newNumericCode();
    await this.#repo.insertCode({
      id: crypto.randomUUID(),
      target: target.address,
      purpose,
      codeHash: this.#hash(target, purpose, existing ? crypto.randomUUID() : code),
      expiresAt: now + CODE_TTL_MS,
      now,
    });
    await sendMessage(
      this.#transport,
      target,
      existing ? { kind: "existing" } : { kind: "code", code },
      reader,
    );
  }

  /**
   * Consumes the latest live code for the target when it matches. The try is counted on
   * the code's row BEFORE the comparison (a conditional UPDATE), so parallel tries get at
   * most MAX_CODE_ATTEMPTS comparisons; past them it throws 429 until a new code is sent.
   */
  async check(
    target: CodeTarget,
    purpose: CodePurpose,
    code: string | undefined,
    o: { consume?: boolean } = {},
  ): Promise<boolean> {
    if (code === undefined) return false;
    const now = this.#now();
    const row = await this.#repo.latestCode(target.address, purpose, now);
    if (row === undefined) return false;
    if (!(await this.#repo.reserveCodeAttempt(row.id, MAX_CODE_ATTEMPTS, now))) {
      throw throttledError(Math.max(0, row.expires_at - now));
    }
    if (!safeEqualHex(row.code_hash, this.#hash(target, purpose, code))) return false;
    // `consume: false`: right, but kept for a step that may still fail (the reset's second factor).
    if (o.consume === false) return true;
    return this.#repo.consumeCode(row.id, now);
  }
}

export function emailTarget(email: string): CodeTarget {
  return { channel: "email", address: email.trim().toLowerCase() };
}

export function phoneTarget(areaCode: string, mobile: string): CodeTarget {
  return { channel: "sms", address: `+${areaCode.replace(/^\+/, "")}${mobile}` };
}

/** Renders a message for its reader and hands it to the transport (SMS gets the text only). */
export async function sendMessage(
  transport: MessageTransport,
  target: CodeTarget,
  message: MailKind,
  reader: Reader,
): Promise<void> {
  const mail = renderMail(message, reader.locale, reader.antiPhishingCode);
  await transport.send({
    channel: target.channel,
    recipient: target.address,
    subject: mail.subject,
    text: mail.text,
    ...(target.channel === "email" ? { html: mail.html } : {}),
  });
}
