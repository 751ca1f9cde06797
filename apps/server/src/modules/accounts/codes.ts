import crypto from "node:crypto";
import { type AttemptLimiter, throttledError } from "../../platform/attempts/index.ts";
import { sendIpCounter, sendRecipientCounter } from "./limits.ts";
import type { AccountsRepo } from "./repo.ts";
import { hmacHex, newNumericCode, safeEqualHex } from "./secrets.ts";
import type { MessageTransport } from "./transport.ts";

export const CODE_TTL_MS = 10 * 60_000;
/** Checks one code allows; each is counted on the code's row before the comparison. */
export const MAX_CODE_ATTEMPTS = 5;

export type CodePurpose = "register" | "login" | "bind";

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
   * `notice` replaces the code text (e.g. "this email already has an account").
   */
  async send(
    target: CodeTarget,
    purpose: CodePurpose,
    options: { ip?: string; notice?: string } = {},
  ): Promise<void> {
    const now = this.#now();
    const notice = options.notice;
    await this.#limiter.spend([
      ...(options.ip === undefined ? [] : [sendIpCounter(options.ip)]),
      sendRecipientCounter(target.address),
    ]);
    const code = newNumericCode();
    await this.#repo.insertCode({
      id: crypto.randomUUID(),
      target: target.address,
      purpose,
      codeHash: this.#hash(target, purpose, notice === undefined ? code : crypto.randomUUID()),
      expiresAt: now + CODE_TTL_MS,
      now,
    });
    const body =
      notice ??
      `Your Meridian verification code is ${code}. It expires in 10 minutes. Never share it; Meridian staff will never ask for it.`;
    await this.#transport.send({
      channel: target.channel,
      recipient: target.address,
      subject: "Meridian verification code",
      body,
    });
  }

  /**
   * Consumes the latest live code for the target when it matches. The try is counted on
   * the code's row BEFORE the comparison (a conditional UPDATE), so parallel tries get at
   * most MAX_CODE_ATTEMPTS comparisons; past them it throws 429 until a new code is sent.
   */
  async check(target: CodeTarget, purpose: CodePurpose, code: string | undefined): Promise<boolean> {
    if (code === undefined) return false;
    const now = this.#now();
    const row = await this.#repo.latestCode(target.address, purpose, now);
    if (row === undefined) return false;
    if (!(await this.#repo.reserveCodeAttempt(row.id, MAX_CODE_ATTEMPTS, now))) {
      throw throttledError(Math.max(0, row.expires_at - now));
    }
    if (!safeEqualHex(row.code_hash, this.#hash(target, purpose, code))) return false;
    return this.#repo.consumeCode(row.id, now);
  }
}

export function emailTarget(email: string): CodeTarget {
  return { channel: "email", address: email.trim().toLowerCase() };
}

export function phoneTarget(areaCode: string, mobile: string): CodeTarget {
  return { channel: "sms", address: `+${areaCode.replace(/^\+/, "")}${mobile}` };
}

/** `a***@example.com`, `+44****1234`: what the client shows as "code sent to". */
export function maskAddress(address: string): string {
  const at = address.indexOf("@");
  if (at > 0) return `${address.slice(0, 1)}***${address.slice(at)}`;
  return `${address.slice(0, 3)}****${address.slice(-4)}`;
}
