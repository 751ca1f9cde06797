import type { Db } from "../../platform/db/types.ts";

/** An identity at a provider, as a verified sign-in names it. */
export interface ThirdIdentity {
  provider: string;
  subject: string;
  /** What the provider calls the user: an e-mail, or a Telegram name. */
  display: string;
  /** An address the provider says it verified (OpenID `email_verified`); null otherwise. */
  email: string | null;
}

export interface ThirdIdentityRow {
  provider: string;
  subject: string;
  user_id: string;
  display: string;
  created_at: number;
  last_used_at: number | null;
}

export interface ThirdFlowRow {
  state_hash: string;
  provider: string;
  device_id: string;
  verifier_enc: string;
  nonce: string;
  redirect_uri: string;
  expires_at: number;
}

interface TicketRow {
  provider: string;
  subject: string;
  display: string;
  email: string | null;
  device_id: string;
  expires_at: number;
}

/** Old rows of the short-lived tables are of no use: dropped as new ones come. */
const KEEP_AFTER_END_MS = 60 * 60_000;

/** Rows of the third-party sign-in tables: SQL only. Each spend is one conditional DELETE. */
export class ThirdPartyRepo {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  async insertFlow(f: ThirdFlowRow, now: number): Promise<void> {
    await this.#db.run("DELETE FROM third_flows WHERE expires_at < ?", [now - KEEP_AFTER_END_MS]);
    await this.#db.run(
      `INSERT INTO third_flows (state_hash, provider, device_id, verifier_enc, nonce, redirect_uri, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [f.state_hash, f.provider, f.device_id, f.verifier_enc, f.nonce, f.redirect_uri, f.expires_at],
    );
  }

  /** The flow of `stateHash`, deleted by this read: a state is good for one callback, right or wrong. */
  async takeFlow(stateHash: string): Promise<ThirdFlowRow | undefined> {
    const row = await this.#db.get<ThirdFlowRow>("SELECT * FROM third_flows WHERE state_hash = ?", [
      stateHash,
    ]);
    if (row === undefined) return undefined;
    const res = await this.#db.run("DELETE FROM third_flows WHERE state_hash = ?", [stateHash]);
    return res.changes === 1 ? { ...row, expires_at: Number(row.expires_at) } : undefined;
  }

  async insertTicket(ticketHash: string, t: TicketRow, now: number): Promise<void> {
    await this.#db.run("DELETE FROM third_tickets WHERE expires_at < ?", [now - KEEP_AFTER_END_MS]);
    await this.#db.run(
      `INSERT INTO third_tickets (ticket_hash, provider, subject, display, email, device_id, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [ticketHash, t.provider, t.subject, t.display, t.email, t.device_id, t.expires_at],
    );
  }

  async ticket(ticketHash: string): Promise<TicketRow | undefined> {
    const row = await this.#db.get<TicketRow>("SELECT * FROM third_tickets WHERE ticket_hash = ?", [
      ticketHash,
    ]);
    return row === undefined ? undefined : { ...row, expires_at: Number(row.expires_at) };
  }

  /** True for the one caller that spent the ticket. */
  async spendTicket(ticketHash: string): Promise<boolean> {
    const res = await this.#db.run("DELETE FROM third_tickets WHERE ticket_hash = ?", [ticketHash]);
    return res.changes === 1;
  }

  /** Records Telegram data as used; false when it was used before. */
  async useTelegram(hash: string, expiresAt: number, now: number): Promise<boolean> {
    await this.#db.run("DELETE FROM telegram_logins WHERE expires_at < ?", [now]);
    const res = await this.#db.run(
      "INSERT INTO telegram_logins (hash, expires_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
      [hash, expiresAt],
    );
    return res.changes === 1;
  }

  identity(provider: string, subject: string): Promise<ThirdIdentityRow | undefined> {
    return this.#db.get<ThirdIdentityRow>(
      "SELECT * FROM third_identities WHERE provider = ? AND subject = ?",
      [provider, subject],
    );
  }

  /** False when that identity is bound already (to this account or another). */
  async bind(userId: string, i: ThirdIdentity, now: number): Promise<boolean> {
    const res = await this.#db.run(
      `INSERT INTO third_identities (provider, subject, user_id, display, created_at, last_used_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [i.provider, i.subject, userId, i.display.slice(0, 256), now, now],
    );
    return res.changes === 1;
  }

  async used(provider: string, subject: string, display: string, now: number): Promise<void> {
    await this.#db.run(
      "UPDATE third_identities SET last_used_at = ?, display = ? WHERE provider = ? AND subject = ?",
      [now, display.slice(0, 256), provider, subject],
    );
  }

  async list(userId: string): Promise<ThirdIdentityRow[]> {
    const rows = await this.#db.all<ThirdIdentityRow>(
      "SELECT * FROM third_identities WHERE user_id = ? ORDER BY created_at, provider",
      [userId],
    );
    return rows.map((r) => ({
      ...r,
      created_at: Number(r.created_at),
      last_used_at: r.last_used_at === null ? null : Number(r.last_used_at),
    }));
  }

  async unbind(userId: string, provider: string): Promise<boolean> {
    const res = await this.#db.run("DELETE FROM third_identities WHERE user_id = ? AND provider = ?", [
      userId,
      provider,
    ]);
    return res.changes > 0;
  }

  /** The accounts that signed in on a browser before (its device id): whom a refused try concerns. */
  async usersOfDevice(deviceId: string): Promise<string[]> {
    const rows = await this.#db.all<{ user_id: string }>(
      "SELECT DISTINCT user_id FROM account_devices WHERE device_id = ? LIMIT 10",
      [deviceId],
    );
    return rows.map((r) => r.user_id);
  }
}
