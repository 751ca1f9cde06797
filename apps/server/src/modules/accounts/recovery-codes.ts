import crypto from "node:crypto";
import { AccountCode, RECOVERY_CODE_ALPHABET, RECOVERY_CODE_COUNT } from "@meridian/contracts";
import type { Db } from "../../platform/db/types.ts";
import { BusinessError } from "../../platform/errors.ts";
import { hmacHex } from "./secrets.ts";

/** `k7mfq2xw9p` from `K7MFQ-2xw9p` or `k7mfq 2xw9p`: the form that is hashed. */
export function normalizeRecoveryCode(code: string): string {
  return code.trim().toLowerCase().replace(/[- ]/g, "");
}

/** Ten letters of the alphabet (about 50 bits), shown as two groups of five. */
function newRecoveryCode(): string {
  let out = "";
  for (let i = 0; i < 10; i++) out += RECOVERY_CODE_ALPHABET[crypto.randomInt(RECOVERY_CODE_ALPHABET.length)];
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

/**
 * The recovery codes of the authenticator: issued in plain text once, kept as keyed
 * hashes, each spent by one conditional UPDATE so two parallel uses cannot both pass.
 */
export class RecoveryCodes {
  readonly #db: Db;
  readonly #key: Buffer;

  constructor(db: Db, key: Buffer) {
    this.#db = db;
    this.#key = key;
  }

  #hash(userId: string, code: string): string {
    return hmacHex(this.#key, `recovery:${userId}:${normalizeRecoveryCode(code)}`);
  }

  /** Replaces every code of the user by ten new ones and returns them (the only time they are readable). */
  async issue(userId: string, now: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.#db.transaction(async (tx) => {
      await tx.run("DELETE FROM recovery_codes WHERE user_id = ?", [userId]);
      for (const code of codes) {
        await tx.run(
          "INSERT INTO recovery_codes (user_id, code_hash, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
          [userId, this.#hash(userId, code), now],
        );
      }
    });
    return codes;
  }

  /** Spends `code`; true only for the one call that found it unused. */
  async use(userId: string, code: string, now: number): Promise<boolean> {
    const res = await this.#db.run(
      "UPDATE recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL",
      [now, userId, this.#hash(userId, code)],
    );
    return res.changes === 1;
  }

  async remaining(userId: string): Promise<number> {
    const row = await this.#db.get<{ n: number | string }>(
      "SELECT COUNT(*) AS n FROM recovery_codes WHERE user_id = ? AND used_at IS NULL",
      [userId],
    );
    return Number(row?.n ?? 0);
  }

  async clear(userId: string): Promise<void> {
    await this.#db.run("DELETE FROM recovery_codes WHERE user_id = ?", [userId]);
  }
}

/**
 * A recovery code that is wrong or spent: HTTP 400, since nothing about it should make the
 * client log out (the 200 convention of this module exists for the forced-logout codes).
 */
export function recoveryCodeInvalid(): BusinessError {
  return new BusinessError(AccountCode.RECOVERY_CODE_INVALID, "Recovery code is wrong or already used", {
    status: 400,
  });
}
