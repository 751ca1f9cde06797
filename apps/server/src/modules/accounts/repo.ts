import type { Db, Queryable, SqlValue } from "../../platform/db/types.ts";
import { AuthCache } from "./auth-cache.ts";

/** A users row as stored (flags 0/1, times epoch ms). */
export interface UserRow {
  id: string;
  email: string | null;
  area_code: string | null;
  mobile: string | null;
  phone_key: string | null;
  password_hash: string;
  nick_name: string;
  role: string;
  frozen: number;
  email_enable: number;
  phone_enable: number;
  google_secret_enc: string | null;
  google_pending_enc: string | null;
  google_enable: number;
  google_last_step: number;
  kyc_level: number;
  family_name: string;
  given_name: string;
  country: string;
  anti_phishing_code: string;
  vip_level: number;
  user_type: number;
  parent_id: string | null;
  /** A sub-account's label (set by its master); '' for other users. */
  sub_label: string;
  open_otc: number;
  open_contract: number;
  open_gt_fees: number;
  is_fund: number;
  fund_disabled: number;
  switch_flag: number;
  locale: string;
  created_at: number;
  updated_at: number;
}

export interface SessionRow {
  token_hash: string;
  refresh_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  refresh_expires_at: number;
  revoked_at: number | null;
  revoke_reason: string | null;
  device_key_id: string | null;
  device_public_key: string | null;
  device_alg: string | null;
  device_id: string | null;
  last_seen_at: number | null;
  /** The master's user id when this session was made by switching into a sub-account. */
  switched_from: string | null;
  /** When the session last proved a second factor (its login, or a step-up). */
  stepped_up_at: number | null;
}

export interface ChallengeRow {
  id_hash: string;
  user_id: string;
  methods: string;
  device_public_key: string | null;
  device_alg: string | null;
  attempts: number;
  expires_at: number;
  /** A third-party identity (JSON) to bind once this second step passes. */
  bind_identity: string | null;
}

export interface CodeRow {
  id: string;
  code_hash: string;
  attempts: number;
  expires_at: number;
}

export interface NewUser {
  id: string;
  email: string | null;
  areaCode: string | null;
  mobile: string | null;
  phoneKey: string | null;
  passwordHash: string;
  role: "user" | "admin";
  emailEnable: boolean;
  phoneEnable: boolean;
  locale: string;
  now: number;
}

/** User columns the account centre may change (one statement each, no free-form SQL). */
export interface UserPatch {
  email?: string | null;
  area_code?: string | null;
  mobile?: string | null;
  phone_key?: string | null;
  anti_phishing_code?: string;
  locale?: string;
  open_contract?: number;
  google_secret_enc?: string | null;
  google_pending_enc?: string | null;
  google_enable?: number;
  email_enable?: number;
  phone_enable?: number;
}

const PATCHABLE = new Set<string>([
  "email",
  "area_code",
  "mobile",
  "phone_key",
  "anti_phishing_code",
  "locale",
  "open_contract",
  "google_secret_enc",
  "google_pending_enc",
  "google_enable",
  "email_enable",
  "phone_enable",
]);

export interface NewSession {
  tokenHash: string;
  refreshHash: string;
  userId: string;
  now: number;
  expiresAt: number;
  refreshExpiresAt: number;
  deviceKeyId: string | null;
  devicePublicKey: string | null;
  deviceAlg: string | null;
  ip: string;
  userAgent: string;
  deviceId?: string | null;
  switchedFrom?: string | null;
  /** The login proved a second factor at this time (a step-up for the next 5 minutes). */
  steppedUpAt?: number | null;
}

/** Data access for accounts: SQL only, no rules. */
/** The user columns written one at a time: a closed list, since the name goes into the SQL. */
type UserColumn = "role" | "password_hash" | "frozen" | "google_pending_enc" | "google_enable" | "sub_label";

/** A user as the VIP job groups it (`vipMembers`). */
export interface VipMember {
  id: string;
  parentId: string | null;
  /** The master account of its group: its parent, or itself. */
  master: string;
  vipLevel: number;
}

export class AccountsRepo {
  readonly db: Db;
  /** Sessions behind tokens, remembered where this process is the only writer (see auth-cache.ts). */
  readonly #auth: AuthCache<SessionRow, UserRow> | null;

  constructor(db: Db) {
    this.db = db;
    this.#auth = db.dialect === "sqlite" ? new AuthCache() : null;
  }

  /**
   * The session of a token hash and, when it is live at `now`, its user. Live sessions
   * are remembered; every write below that touches a session or user forgets them.
   */
  async sessionWithUser(
    tokenHash: string,
    now: number,
  ): Promise<{ session: SessionRow; user: UserRow | undefined } | undefined> {
    const hit = this.#auth?.get(tokenHash, now);
    if (hit !== undefined) return hit;
    const epoch = this.#auth?.epoch ?? 0;
    const session = await this.sessionByToken(tokenHash);
    if (session === undefined) return undefined;
    if (session.revoked_at !== null || session.expires_at < now) return { session, user: undefined };
    const user = await this.userById(session.user_id);
    if (user !== undefined) this.#auth?.set(tokenHash, user.id, session, user, now, epoch);
    return { session, user };
  }

  /** Runs a write to a user's row, forgetting the user's remembered sessions before and after. */
  async #userWrite<T>(id: string, write: () => Promise<T>): Promise<T> {
    this.#auth?.dropUser(id);
    try {
      return await write();
    } finally {
      this.#auth?.dropUser(id);
    }
  }

  userById(id: string, q: Queryable = this.db): Promise<UserRow | undefined> {
    return q.get<UserRow>("SELECT * FROM users WHERE id = ?", [id]);
  }

  userByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.get<UserRow>("SELECT * FROM users WHERE email = ?", [email]);
  }

  userByPhoneKey(phoneKey: string): Promise<UserRow | undefined> {
    return this.db.get<UserRow>("SELECT * FROM users WHERE phone_key = ?", [phoneKey]);
  }

  /** False when the email or phone is already taken (unique constraint). */
  async insertUser(u: NewUser, q: Queryable = this.db): Promise<boolean> {
    const res = await q.run(
      `INSERT INTO users (id, email, area_code, mobile, phone_key, password_hash, role, email_enable, phone_enable, locale, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [
        u.id,
        u.email,
        u.areaCode,
        u.mobile,
        u.phoneKey,
        u.passwordHash,
        u.role,
        u.emailEnable ? 1 : 0,
        u.phoneEnable ? 1 : 0,
        u.locale,
        u.now,
        u.now,
      ],
    );
    return res.changes === 1;
  }

  /**
   * Updates the named columns of one user. False when a unique column (email, phone)
   * is taken by another account.
   */
  async patchUser(id: string, patch: UserPatch, now: number): Promise<boolean> {
    const entries = Object.entries(patch).filter(([k]) => PATCHABLE.has(k));
    if (entries.length === 0) return true;
    const sets = entries.map(([k]) => `${k} = ?`).join(", ");
    return this.#userWrite(id, async () => {
      try {
        await this.db.run(`UPDATE users SET ${sets}, updated_at = ? WHERE id = ?`, [
          ...entries.map(([, v]) => v as string | number | null),
          now,
          id,
        ]);
        return true;
      } catch (err) {
        if (/unique|duplicate/i.test(String((err as Error).message))) return false;
        throw err;
      }
    });
  }

  /** Writes one column of a user and `updated_at` (the remembered sessions are dropped around it). */
  #setColumn(id: string, column: UserColumn, value: SqlValue, now: number): Promise<void> {
    return this.#userWrite(id, async () => {
      await this.db.run(`UPDATE users SET ${column} = ?, updated_at = ? WHERE id = ?`, [value, now, id]);
    });
  }

  setRole(id: string, role: "user" | "admin", now: number): Promise<void> {
    return this.#setColumn(id, "role", role, now);
  }

  setPassword(id: string, passwordHash: string, now: number): Promise<void> {
    return this.#setColumn(id, "password_hash", passwordHash, now);
  }

  setFrozen(id: string, frozen: boolean, now: number): Promise<void> {
    return this.#setColumn(id, "frozen", frozen ? 1 : 0, now);
  }

  setGooglePending(id: string, sealed: string | null, now: number): Promise<void> {
    return this.#setColumn(id, "google_pending_enc", sealed, now);
  }

  async bindGoogle(id: string, sealed: string, step: number, now: number): Promise<void> {
    return this.#userWrite(id, async () => {
      await this.db.run(
        "UPDATE users SET google_secret_enc = ?, google_pending_enc = NULL, google_enable = 1, google_last_step = ?, updated_at = ? WHERE id = ?",
        [sealed, step, now, id],
      );
    });
  }

  setGoogleEnable(id: string, enable: boolean, now: number): Promise<void> {
    return this.#setColumn(id, "google_enable", enable ? 1 : 0, now);
  }

  /** Records the TOTP step used; false when that step (or a later one) was already used. */
  async useGoogleStep(id: string, step: number): Promise<boolean> {
    return this.#userWrite(id, async () => {
      const res = await this.db.run(
        "UPDATE users SET google_last_step = ? WHERE id = ? AND google_last_step < ?",
        [step, id, step],
      );
      return res.changes === 1;
    });
  }

  async kycLevel1(
    id: string,
    s: {
      submissionId: string;
      familyName: string;
      givenName: string;
      country: string;
      documentHash: string;
      documentLast4: string;
    },
    now: number,
  ): Promise<void> {
    return this.#userWrite(id, async () => {
      await this.db.transaction(async (tx) => {
        await tx.run(
          "UPDATE users SET kyc_level = CASE WHEN kyc_level < 1 THEN 1 ELSE kyc_level END, family_name = ?, given_name = ?, country = ?, updated_at = ? WHERE id = ?",
          [s.familyName, s.givenName, s.country, now, id],
        );
        await tx.run(
          "INSERT INTO kyc_submissions (id, user_id, level, country, document_hash, document_last4, status, created_at) VALUES (?, ?, 1, ?, ?, ?, 'approved', ?)",
          [s.submissionId, id, s.country, s.documentHash, s.documentLast4, now],
        );
      });
    });
  }

  async kycLevel2(
    id: string,
    s: { submissionId: string; addressLine: string; city: string },
    now: number,
  ): Promise<void> {
    return this.#userWrite(id, async () => {
      await this.db.transaction(async (tx) => {
        await tx.run("UPDATE users SET kyc_level = 2, updated_at = ? WHERE id = ? AND kyc_level >= 1", [
          now,
          id,
        ]);
        await tx.run(
          "INSERT INTO kyc_submissions (id, user_id, level, address_line, city, status, created_at) VALUES (?, ?, 2, ?, ?, 'approved', ?)",
          [s.submissionId, id, s.addressLine, s.city, now],
        );
      });
    });
  }

  async insertSession(s: NewSession): Promise<void> {
    await this.db.run(
      `INSERT INTO sessions (token_hash, refresh_hash, user_id, created_at, expires_at, refresh_expires_at, device_key_id, device_public_key, device_alg, ip, user_agent, device_id, last_seen_at, switched_from, stepped_up_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        s.tokenHash,
        s.refreshHash,
        s.userId,
        s.now,
        s.expiresAt,
        s.refreshExpiresAt,
        s.deviceKeyId,
        s.devicePublicKey,
        s.deviceAlg,
        s.ip,
        s.userAgent,
        s.deviceId ?? null,
        s.now,
        s.switchedFrom ?? null,
        s.steppedUpAt ?? null,
      ],
    );
  }

  /** Records a second factor proved by the session now (remembered sessions are dropped around it). */
  async markSteppedUp(tokenHash: string, now: number): Promise<void> {
    this.#auth?.dropToken(tokenHash);
    try {
      await this.db.run("UPDATE sessions SET stepped_up_at = ? WHERE token_hash = ?", [now, tokenHash]);
    } finally {
      this.#auth?.dropToken(tokenHash);
    }
  }

  sessionByToken(tokenHash: string): Promise<SessionRow | undefined> {
    return this.db.get<SessionRow>("SELECT * FROM sessions WHERE token_hash = ?", [tokenHash]);
  }

  sessionByRefresh(refreshHash: string): Promise<SessionRow | undefined> {
    return this.db.get<SessionRow>("SELECT * FROM sessions WHERE refresh_hash = ?", [refreshHash]);
  }

  async revokeSession(tokenHash: string, reason: string, now: number): Promise<void> {
    this.#auth?.dropToken(tokenHash);
    try {
      await this.db.run(
        "UPDATE sessions SET revoked_at = ?, revoke_reason = ? WHERE token_hash = ? AND revoked_at IS NULL",
        [now, reason, tokenHash],
      );
    } finally {
      this.#auth?.dropToken(tokenHash);
    }
  }

  async revokeUserSessions(userId: string, reason: string, now: number): Promise<number> {
    return this.#userWrite(userId, async () => {
      const res = await this.db.run(
        "UPDATE sessions SET revoked_at = ?, revoke_reason = ? WHERE user_id = ? AND revoked_at IS NULL",
        [now, reason, userId],
      );
      return res.changes;
    });
  }

  /** Ends a user's live sessions on one device but `keepTokenHash`; returns how many. */
  async revokeDeviceSessions(
    userId: string,
    deviceId: string,
    keepTokenHash: string,
    reason: string,
    now: number,
  ): Promise<number> {
    return this.#userWrite(userId, async () => {
      const res = await this.db.run(
        "UPDATE sessions SET revoked_at = ?, revoke_reason = ? WHERE user_id = ? AND device_id = ? AND token_hash <> ? AND revoked_at IS NULL",
        [now, reason, userId, deviceId, keepTokenHash],
      );
      return res.changes;
    });
  }

  /** Ends every live session of a user but `keepTokenHash`; returns how many. */
  async revokeOtherSessions(
    userId: string,
    keepTokenHash: string,
    reason: string,
    now: number,
  ): Promise<number> {
    return this.#userWrite(userId, async () => {
      const res = await this.db.run(
        "UPDATE sessions SET revoked_at = ?, revoke_reason = ? WHERE user_id = ? AND token_hash <> ? AND revoked_at IS NULL",
        [now, reason, userId, keepTokenHash],
      );
      return res.changes;
    });
  }

  /** Last-seen time of a session (the devices page); callers rate-limit it. */
  async touchSession(tokenHash: string, now: number): Promise<void> {
    await this.db.run("UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?", [now, tokenHash]);
  }

  async insertChallenge(c: ChallengeRow & { created_at: number }): Promise<void> {
    await this.db.run(
      "INSERT INTO login_challenges (id_hash, user_id, methods, device_public_key, device_alg, attempts, expires_at, created_at, bind_identity) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)",
      [
        c.id_hash,
        c.user_id,
        c.methods,
        c.device_public_key,
        c.device_alg,
        c.expires_at,
        c.created_at,
        c.bind_identity,
      ],
    );
  }

  challenge(idHash: string): Promise<ChallengeRow | undefined> {
    return this.db.get<ChallengeRow>("SELECT * FROM login_challenges WHERE id_hash = ?", [idHash]);
  }

  /** Counts one try on a live challenge; false when its tries are used up, or it is gone or expired. */
  async reserveChallengeAttempt(idHash: string, max: number, now: number): Promise<boolean> {
    const res = await this.db.run(
      "UPDATE login_challenges SET attempts = attempts + 1 WHERE id_hash = ? AND attempts < ? AND expires_at >= ?",
      [idHash, max, now],
    );
    return res.changes === 1;
  }

  /** Deletes the challenge; true only for the one caller that consumed it. */
  async consumeChallenge(idHash: string): Promise<boolean> {
    const res = await this.db.run("DELETE FROM login_challenges WHERE id_hash = ?", [idHash]);
    return res.changes === 1;
  }

  async insertCode(c: {
    id: string;
    target: string;
    purpose: string;
    codeHash: string;
    expiresAt: number;
    now: number;
  }): Promise<void> {
    await this.db.run(
      "INSERT INTO verify_codes (id, target, purpose, code_hash, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      [c.id, c.target, c.purpose, c.codeHash, c.expiresAt, c.now],
    );
  }

  latestCode(target: string, purpose: string, now: number): Promise<CodeRow | undefined> {
    return this.db.get<CodeRow>(
      "SELECT id, code_hash, attempts, expires_at FROM verify_codes WHERE target = ? AND purpose = ? AND consumed_at IS NULL AND expires_at > ? ORDER BY created_at DESC LIMIT 1",
      [target, purpose, now],
    );
  }

  /** Counts one try on a live code; false when its tries are used up (or it is spent or expired). */
  async reserveCodeAttempt(id: string, max: number, now: number): Promise<boolean> {
    const res = await this.db.run(
      "UPDATE verify_codes SET attempts = attempts + 1 WHERE id = ? AND attempts < ? AND consumed_at IS NULL AND expires_at > ?",
      [id, max, now],
    );
    return res.changes === 1;
  }

  async consumeCode(id: string, now: number): Promise<boolean> {
    const res = await this.db.run(
      "UPDATE verify_codes SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL",
      [now, id],
    );
    return res.changes === 1;
  }

  async upsertDevice(d: {
    userHash: string;
    keyId: string;
    userId: string;
    publicKey: string;
    alg: string;
    now: number;
  }): Promise<void> {
    await this.db.run(
      `INSERT INTO user_devices (user_hash, key_id, user_id, public_key, alg, last_used_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_hash, key_id) DO UPDATE SET last_used_at = excluded.last_used_at`,
      [d.userHash, d.keyId, d.userId, d.publicKey, d.alg, d.now],
    );
  }

  devicesByUserHash(
    userHash: string,
  ): Promise<{ key_id: string; public_key: string; alg: string; user_id: string }[]> {
    return this.db.all(
      "SELECT key_id, public_key, alg, user_id FROM user_devices WHERE user_hash = ? ORDER BY last_used_at DESC LIMIT 10",
      [userHash],
    );
  }

  // ---- sub-accounts and VIP (see modules/subaccounts, modules/vip) ------------------------

  /** Inserts a sub-account of `parentId`; false when the virtual e-mail is taken. */
  async insertSubUser(u: {
    id: string;
    email: string;
    passwordHash: string;
    parentId: string;
    label: string;
    now: number;
  }): Promise<boolean> {
    const res = await this.db.run(
      `INSERT INTO users (id, email, password_hash, role, parent_id, sub_label, created_at, updated_at)
       VALUES (?, ?, ?, 'user', ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [u.id, u.email, u.passwordHash, u.parentId, u.label, u.now, u.now],
    );
    return res.changes === 1;
  }

  subUsers(parentId: string): Promise<UserRow[]> {
    return this.db.all<UserRow>("SELECT * FROM users WHERE parent_id = ? ORDER BY created_at, id", [
      parentId,
    ]);
  }

  async countSubUsers(parentId: string): Promise<number> {
    const row = await this.db.get<{ n: number | string }>(
      "SELECT COUNT(*) AS n FROM users WHERE parent_id = ?",
      [parentId],
    );
    return Number(row?.n ?? 0);
  }

  setSubLabel(id: string, label: string, now: number): Promise<void> {
    return this.#setColumn(id, "sub_label", label, now);
  }

  /**
   * Each user with its master (itself for a master) and VIP level, for the VIP job;
   * `master` limits it to that master and its sub-accounts.
   */
  async vipMembers(master?: string): Promise<VipMember[]> {
    const rows = await this.db.all<{ id: string; parent_id: string | null; vip_level: number | string }>(
      `SELECT id, parent_id, vip_level FROM users${master === undefined ? "" : " WHERE id = ? OR parent_id = ?"}`,
      master === undefined ? [] : [master, master],
    );
    return rows.map((r) => ({
      id: r.id,
      parentId: r.parent_id,
      master: r.parent_id ?? r.id,
      vipLevel: Number(r.vip_level),
    }));
  }

  /** The users above VIP 0 and their level (the fee schedule reads it per paper account). */
  async vipLevels(): Promise<Map<string, number>> {
    const rows = await this.db.all<{ id: string; vip_level: number | string }>(
      "SELECT id, vip_level FROM users WHERE vip_level <> 0",
    );
    return new Map(rows.map((r) => [r.id, Number(r.vip_level)]));
  }

  /** Sets a user's VIP level; the remembered sessions are dropped, so fees follow on the next request. */
  async setVipLevel(id: string, level: number, now: number): Promise<void> {
    return this.#userWrite(id, async () => {
      await this.db.run("UPDATE users SET vip_level = ?, updated_at = ? WHERE id = ? AND vip_level <> ?", [
        level,
        now,
        id,
        level,
      ]);
    });
  }
}
