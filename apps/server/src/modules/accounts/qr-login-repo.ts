import type { Db } from "../../platform/db/types.ts";

/** `done`: confirmed and spent by the browser that asked (it holds a session now). */
export type QrRowStatus = "waiting" | "scanned" | "confirmed" | "rejected" | "done";

export interface QrLoginRow {
  token_hash: string;
  device_id: string;
  ip: string;
  user_agent: string;
  status: QrRowStatus;
  user_id: string | null;
  created_at: number;
  expires_at: number;
}

/** Rows of `qr_logins`: SQL only. Every change is one conditional UPDATE, so a race has one winner. */
export class QrLoginRepo {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  async insert(r: {
    tokenHash: string;
    deviceId: string;
    ip: string;
    userAgent: string;
    now: number;
    expiresAt: number;
  }) {
    // Rows an hour past their end are of no use to anyone: dropped as new ones come.
    await this.#db.run("DELETE FROM qr_logins WHERE expires_at < ?", [r.now - 60 * 60_000]);
    await this.#db.run(
      `INSERT INTO qr_logins (token_hash, device_id, ip, user_agent, status, created_at, expires_at)
       VALUES (?, ?, ?, ?, 'waiting', ?, ?)`,
      [r.tokenHash, r.deviceId, r.ip, r.userAgent, r.now, r.expiresAt],
    );
  }

  async get(tokenHash: string): Promise<QrLoginRow | undefined> {
    const row = await this.#db.get<QrLoginRow>("SELECT * FROM qr_logins WHERE token_hash = ?", [tokenHash]);
    return row === undefined
      ? undefined
      : { ...row, created_at: Number(row.created_at), expires_at: Number(row.expires_at) };
  }

  /** Waiting -> scanned by `userId` (again by the same user is a no-op that succeeds). */
  async scan(tokenHash: string, userId: string, now: number): Promise<boolean> {
    const res = await this.#db.run(
      `UPDATE qr_logins SET status = 'scanned', user_id = ?
       WHERE token_hash = ? AND expires_at >= ? AND (status = 'waiting' OR (status = 'scanned' AND user_id = ?))`,
      [userId, tokenHash, now, userId],
    );
    return res.changes === 1;
  }

  /** Scanned by `userId` -> confirmed or rejected: once. */
  async decide(
    tokenHash: string,
    userId: string,
    to: "confirmed" | "rejected",
    now: number,
  ): Promise<boolean> {
    const res = await this.#db.run(
      `UPDATE qr_logins SET status = ?, decided_at = ?
       WHERE token_hash = ? AND status = 'scanned' AND user_id = ? AND expires_at >= ?`,
      [to, now, tokenHash, userId, now],
    );
    return res.changes === 1;
  }

  /** Confirmed -> done, within the token's time: true for the one poll that gets the session. */
  async spend(tokenHash: string, now: number): Promise<boolean> {
    const res = await this.#db.run(
      "UPDATE qr_logins SET status = 'done' WHERE token_hash = ? AND status = 'confirmed' AND expires_at >= ?",
      [tokenHash, now],
    );
    return res.changes === 1;
  }
}
