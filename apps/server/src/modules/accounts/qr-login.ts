import {
  QR_TOKEN_TTL_MS,
  type QrKeyIssued,
  QrLoginCode,
  type QrRequestInfo,
  type QrStatus,
} from "@meridian/contracts";
import type { AttemptLimiter } from "../../platform/attempts/index.ts";
import { BusinessError } from "../../platform/errors.ts";
import { describeUserAgent } from "../security-report/index.ts";
import { ipCounter, secondFactorCounter } from "./limits.ts";
import { QrLoginRepo, type QrLoginRow } from "./qr-login-repo.ts";
import { hmacHex, newToken } from "./secrets.ts";
import type { Actor } from "./security-service.ts";

type Failure = "unknown" | "expired" | "used" | "own";

function qrError(failure: Failure): BusinessError {
  switch (failure) {
    case "unknown":
      return new BusinessError(QrLoginCode.TOKEN_UNKNOWN, "Unknown QR code", { status: 404 });
    case "expired":
      return new BusinessError(QrLoginCode.TOKEN_EXPIRED, "This QR code has expired", { status: 410 });
    case "used":
      return new BusinessError(QrLoginCode.TOKEN_USED, "This QR code was already used", { status: 409 });
    case "own":
      return new BusinessError(QrLoginCode.OWN_REQUEST, "Confirm on another device", { status: 403 });
  }
}

/** The browser that asks (it has no session yet): its address, user agent and device id. */
export interface QrRequester {
  ip: string;
  userAgent: string;
  deviceId: string;
}

export interface QrLoginDeps {
  db: ConstructorParameters<typeof QrLoginRepo>[0];
  codeKey: Buffer;
  limiter: AttemptLimiter;
  now: () => number;
  /** A login-history line for the user a failed try concerns. */
  history(userId: string, who: { ip: string; userAgent: string; deviceId: string | null }): Promise<void>;
}

/** What one poll of the asking browser found; `userId` only for the poll that spent a confirmation. */
export interface QrPoll {
  status: QrStatus;
  expiresAt: number;
  userId?: string;
}

/** Splits an address into its network part (IPv4 /24, IPv6 /48) for a coarse "where". */
function networkOf(ip: string): { prefix: string; shown: string } {
  const v4 = ip.replace(/^::ffff:/i, "");
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(v4)) {
    const prefix = v4.split(".").slice(0, 3).join(".");
    return { prefix, shown: `${prefix}.*` };
  }
  const [head = "", tail] = ip.toLowerCase().split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  const prefix = groups.slice(0, 3).join(":");
  return { prefix, shown: `${prefix}:*` };
}

/**
 * QR login's rules. A token lives 2 minutes and is stored as a keyed hash; only the
 * browser that asked may poll it (its device cookie); a logged-in session elsewhere scans
 * it (waiting -> scanned), then confirms or rejects it once; the asking browser's next
 * poll spends a confirmation into a session, once. Every failed try (unknown, expired,
 * used, confirmed by its own browser) counts against the address's attempt budget, and
 * on a logged-in side against the user's second-factor budget, and is a `qr` line in the
 * login history of the account it concerns.
 */
export class QrLogins {
  readonly #d: QrLoginDeps;
  readonly #repo: QrLoginRepo;

  constructor(deps: QrLoginDeps) {
    this.#d = deps;
    this.#repo = new QrLoginRepo(deps.db);
  }

  #hash(token: string): string {
    return hmacHex(this.#d.codeKey, `qr:${token}`);
  }

  async issue(who: QrRequester): Promise<QrKeyIssued> {
    const token = newToken();
    const now = this.#d.now();
    const expiresAt = now + QR_TOKEN_TTL_MS;
    await this.#repo.insert({
      tokenHash: this.#hash(token),
      deviceId: who.deviceId,
      ip: who.ip,
      userAgent: who.userAgent.slice(0, 512),
      now,
      expiresAt,
    });
    return { token, expiresAt };
  }

  /** The asking browser's poll (`getQrKeyStatus`). */
  async poll(token: string, who: QrRequester): Promise<QrPoll> {
    const hash = this.#hash(token);
    let failure: Failure | undefined;
    let row: QrLoginRow | undefined;
    let result: QrPoll | undefined;
    await this.#d.limiter.attempt([ipCounter(who.ip)], async () => {
      const now = this.#d.now();
      row = await this.#repo.get(hash);
      // Another browser holding the token (a photographed QR code) learns nothing from it.
      if (row === undefined || row.device_id !== who.deviceId) failure = "unknown";
      else if (row.status === "done") failure = "used";
      else if (row.status === "rejected") result = { status: "rejected", expiresAt: row.expires_at };
      else if (row.expires_at < now) result = { status: "expired", expiresAt: row.expires_at };
      else if (row.status === "confirmed") {
        if (await this.#repo.spend(hash, now))
          result = { status: "confirmed", expiresAt: row.expires_at, userId: row.user_id ?? undefined };
        else failure = "used";
      } else result = { status: row.status, expiresAt: row.expires_at };
      return failure === undefined;
    });
    if (failure !== undefined || result === undefined) {
      if (row?.user_id != null && failure !== "unknown") await this.#d.history(row.user_id, who);
      throw qrError(failure ?? "unknown");
    }
    return result;
  }

  /** The confirming side opens the link: the token is marked scanned and the request described. */
  async scan(actor: Actor, token: string): Promise<QrRequestInfo> {
    const row = await this.#change(actor, token, (hash, now) => this.#repo.scan(hash, actor.user.id, now));
    const ua = describeUserAgent(row.user_agent);
    const where = networkOf(row.ip);
    return {
      status: "scanned",
      browser: ua.browser,
      system: ua.os,
      ip: where.shown,
      sameNetwork: where.prefix === networkOf(actor.ip).prefix,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    };
  }

  /** Confirms or rejects a token this user scanned: once. */
  async decide(actor: Actor, token: string, to: "confirmed" | "rejected"): Promise<void> {
    await this.#change(actor, token, (hash, now) => this.#repo.decide(hash, actor.user.id, to, now));
  }

  async #change(
    actor: Actor,
    token: string,
    update: (hash: string, now: number) => Promise<boolean>,
  ): Promise<QrLoginRow> {
    const hash = this.#hash(token);
    let failure: Failure | undefined;
    let row: QrLoginRow | undefined;
    // The user's counter is refunded, not reset, by a good scan: a session is no proof of a factor.
    const user = { ...secondFactorCounter(actor.user.id), onSuccess: "refund" as const };
    await this.#d.limiter.attempt([ipCounter(actor.ip), user], async () => {
      const now = this.#d.now();
      row = await this.#repo.get(hash);
      if (row === undefined) failure = "unknown";
      // Never by the browser that asked: its own session would log itself in.
      else if (actor.deviceId !== null && row.device_id === actor.deviceId) failure = "own";
      else if (row.expires_at < now) failure = "expired";
      else if (!(await update(hash, now))) {
        const after = await this.#repo.get(hash);
        failure = after !== undefined && after.expires_at < now ? "expired" : "used";
      }
      return failure === undefined;
    });
    if (failure !== undefined || row === undefined) {
      await this.#d.history(actor.user.id, actor);
      throw qrError(failure ?? "unknown");
    }
    return row;
  }
}
