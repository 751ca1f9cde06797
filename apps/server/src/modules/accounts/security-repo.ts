import crypto from "node:crypto";
import type { Db } from "../../platform/db/types.ts";

export interface DeviceRow {
  device_id: string;
  user_agent: string;
  ip: string;
  first_seen: number;
  last_seen: number;
  /** Live sessions on the device. */
  sessions: number;
  /** Newest activity of those sessions (null when none is live). */
  session_seen: number | null;
  /** What the login that first saw the device proved besides the password. */
  verified_by: string | null;
}

export interface HistoryRow {
  at: number;
  success: number;
  reason: string | null;
  ip: string;
  user_agent: string;
  new_device: number;
  verified_by: string | null;
}

/** Data access for the devices and the login history: SQL only, no rules. */
export class SecurityRepo {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  /** Records a login from a device; true when the account had never used that device. */
  async seeDevice(d: {
    userId: string;
    deviceId: string;
    userAgent: string;
    ip: string;
    now: number;
    verifiedBy: string | null;
  }) {
    const res = await this.#db.run(
      `INSERT INTO account_devices (user_id, device_id, user_agent, ip, first_seen, last_seen, verified_by) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, device_id) DO NOTHING`,
      [d.userId, d.deviceId, d.userAgent, d.ip, d.now, d.now, d.verifiedBy],
    );
    if (res.changes === 1) return true;
    await this.#db.run(
      "UPDATE account_devices SET user_agent = ?, ip = ?, last_seen = ? WHERE user_id = ? AND device_id = ?",
      [d.userAgent, d.ip, d.now, d.userId, d.deviceId],
    );
    return false;
  }

  async hasDevices(userId: string): Promise<boolean> {
    const row = await this.#db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM account_devices WHERE user_id = ?",
      [userId],
    );
    return Number(row?.n ?? 0) > 0;
  }

  /** Every device of the account, the most recently used first, with its live sessions. */
  devices(userId: string, now: number): Promise<DeviceRow[]> {
    return this.#db.all<DeviceRow>(
      `SELECT d.device_id, d.user_agent, d.ip, d.first_seen, d.last_seen, d.verified_by,
              COUNT(s.token_hash) AS sessions, MAX(s.last_seen_at) AS session_seen
       FROM account_devices d
       LEFT JOIN sessions s ON s.user_id = d.user_id AND s.device_id = d.device_id
            AND s.revoked_at IS NULL AND s.expires_at > ?
       WHERE d.user_id = ?
       GROUP BY d.device_id, d.user_agent, d.ip, d.first_seen, d.last_seen, d.verified_by
       ORDER BY d.last_seen DESC
       LIMIT 100`,
      [now, userId],
    );
  }

  async deviceExists(userId: string, deviceId: string): Promise<boolean> {
    const row = await this.#db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM account_devices WHERE user_id = ? AND device_id = ?",
      [userId, deviceId],
    );
    return Number(row?.n ?? 0) > 0;
  }

  async recordLogin(h: {
    userId: string;
    at: number;
    success: boolean;
    reason: string | null;
    ip: string;
    userAgent: string;
    deviceId: string | null;
    newDevice?: boolean;
    verifiedBy?: string | null;
  }): Promise<void> {
    await this.#db.run(
      `INSERT INTO login_history (id, user_id, at, success, reason, ip, user_agent, device_id, new_device, verified_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        crypto.randomUUID(),
        h.userId,
        h.at,
        h.success ? 1 : 0,
        h.reason,
        h.ip,
        h.userAgent,
        h.deviceId,
        h.newDevice === true ? 1 : 0,
        h.verifiedBy ?? null,
      ],
    );
  }

  /** One page of the history since `since`, newest first, and the total. */
  async history(
    userId: string,
    since: number,
    offset: number,
    limit: number,
  ): Promise<{ rows: HistoryRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.#db.all<HistoryRow>(
        "SELECT at, success, reason, ip, user_agent, new_device, verified_by FROM login_history WHERE user_id = ? AND at >= ? ORDER BY at DESC LIMIT ? OFFSET ?",
        [userId, since, limit, offset],
      ),
      this.#db.get<{ n: number }>("SELECT COUNT(*) AS n FROM login_history WHERE user_id = ? AND at >= ?", [
        userId,
        since,
      ]),
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  }

  /** Forgets history older than `before` (kept 90 days). */
  async pruneHistory(before: number): Promise<number> {
    const res = await this.#db.run("DELETE FROM login_history WHERE at < ?", [before]);
    return res.changes;
  }
}
