import crypto from "node:crypto";
import { AccountCode } from "@meridian/contracts";
import { AppError } from "./errors.ts";
import { type MailKind, renderMail } from "./mail-templates.ts";
import type { AccountsRepo } from "./repo.ts";
import { hmacHex, newNumericCode, safeEqualHex } from "./secrets.ts";
import type { MessageTransport } from "./transport.ts";

export { maskAddress } from "./mask.ts";

export const CODE_TTL_MS = 10 * 60_000;
const MAX_CODE_ATTEMPTS = 5;
const MAX_CODES_PER_WINDOW = 5;
const CODE_WINDOW_MS = 10 * 60_000;

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

  constructor(repo: AccountsRepo, transport: MessageTransport, key: Buffer, now: () => number) {
    this.#repo = repo;
    this.#transport = transport;
    this.#key = key;
    this.#now = now;
  }

  #hash(target: CodeTarget, purpose: CodePurpose, code: string): string {
    return hmacHex(this.#key, `${purpose}\n${target.address}\n${code}`);
  }

  /**
   * Sends a fresh code; with `existing`, the "you already have an account" notice instead
   * (and a code nobody can know is stored, so the limits behave the same).
   */
  async send(target: CodeTarget, purpose: CodePurpose, reader: Reader, existing = false): Promise<void> {
    const now = this.#now();
    if ((await this.#repo.countCodesSince(target.address, now - CODE_WINDOW_MS)) >= MAX_CODES_PER_WINDOW) {
      throw new AppError(AccountCode.LOGIN_THROTTLED, "Too many codes requested; try again later", {
        status: 429,
        data: { retryAfterMs: CODE_WINDOW_MS },
      });
    }
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

  /** Consumes the latest live code for the target when it matches; each code allows five tries. */
  async check(target: CodeTarget, purpose: CodePurpose, code: string | undefined): Promise<boolean> {
    if (code === undefined) return false;
    const now = this.#now();
    const row = await this.#repo.latestCode(target.address, purpose, now);
    if (row === undefined || row.attempts >= MAX_CODE_ATTEMPTS) return false;
    if (!safeEqualHex(row.code_hash, this.#hash(target, purpose, code))) {
      await this.#repo.bumpCode(row.id);
      return false;
    }
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
