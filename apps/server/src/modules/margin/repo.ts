import type { MarginAccountModeValue, MarginRecordType } from "@meridian/contracts";
import type { Db, Queryable, SqlValue } from "../../platform/db/types.ts";

/** One loan of one margin account (`symbol` is "" for the cross account). */
export interface LoanRow {
  accountId: number;
  symbol: string;
  asset: string;
  principal: bigint;
  interest: bigint;
}

export interface RecordRow {
  id: number;
  accountId: number;
  type: MarginRecordType;
  mode: MarginAccountModeValue;
  symbol: string | null;
  asset: string;
  amount: bigint;
  interest: bigint | null;
  principal: bigint | null;
  createdAt: number;
}

export interface MarginState {
  loans: LoanRow[];
  isolated: Array<{ accountId: number; symbol: string }>;
  maxRecordId: number;
  /** The last interest boundary charged; null before the first run. */
  interestAt: number | null;
}

/** Rows one margin command writes, in the paper writer's group commit. */
export interface MarginWrites {
  loans: Map<string, LoanRow>;
  records: RecordRow[];
  isolated: Array<{ accountId: number; symbol: string }>;
  interestAt: number | null;
}

export const emptyWrites = (): MarginWrites => ({
  loans: new Map(),
  records: [],
  isolated: [],
  interestAt: null,
});

export const writesEmpty = (w: MarginWrites): boolean =>
  w.loans.size === 0 && w.records.length === 0 && w.isolated.length === 0 && w.interestAt === null;

export interface RecordQuery {
  accountId: number;
  mode?: MarginAccountModeValue | undefined;
  symbol?: string | undefined;
  type?: MarginRecordType | undefined;
  asset?: string | undefined;
  limit: number;
  before?: number | undefined;
}

const INTEREST_CLOCK = "interest";

interface RecordRecord {
  id: number;
  account_id: number;
  type: string;
  mode: string;
  symbol: string | null;
  asset: string;
  amount: string;
  interest: string | null;
  principal: string | null;
  created_at: number;
}

/** SQL for margin trading; one text for SQLite and PostgreSQL. */
export class MarginRepo {
  readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async load(): Promise<MarginState> {
    const loans = await this.db.all<{
      account_id: number;
      symbol: string;
      asset: string;
      principal: string;
      interest: string;
    }>(
      `SELECT account_id, symbol, asset, CAST(principal AS TEXT) AS principal, CAST(interest AS TEXT) AS interest
       FROM margin_loans WHERE principal <> 0 OR interest <> 0`,
    );
    const isolated = await this.db.all<{ account_id: number; symbol: string }>(
      "SELECT account_id, symbol FROM margin_isolated ORDER BY account_id, created_at, symbol",
    );
    const max = await this.db.get<{ m: number | null }>("SELECT MAX(id) AS m FROM margin_records");
    const clock = await this.db.get<{ at: number }>("SELECT at FROM margin_clock WHERE name = ?", [
      INTEREST_CLOCK,
    ]);
    return {
      loans: loans.map((r) => ({
        accountId: Number(r.account_id),
        symbol: r.symbol,
        asset: r.asset,
        principal: BigInt(r.principal),
        interest: BigInt(r.interest),
      })),
      isolated: isolated.map((r) => ({ accountId: Number(r.account_id), symbol: r.symbol })),
      maxRecordId: Number(max?.m ?? 0),
      interestAt: clock === undefined ? null : Number(clock.at),
    };
  }

  async write(tx: Queryable, w: MarginWrites, now: number): Promise<void> {
    for (const l of w.loans.values()) {
      await tx.run(
        `INSERT INTO margin_loans (account_id, symbol, asset, principal, interest, updated_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, symbol, asset) DO UPDATE SET principal = excluded.principal,
         interest = excluded.interest, updated_at = excluded.updated_at`,
        [l.accountId, l.symbol, l.asset, l.principal, l.interest, now],
      );
    }
    for (const r of w.records) {
      await tx.run(
        `INSERT INTO margin_records (id, account_id, type, mode, symbol, asset, amount, interest, principal, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          r.id,
          r.accountId,
          r.type,
          r.mode,
          r.symbol,
          r.asset,
          r.amount,
          r.interest,
          r.principal,
          r.createdAt,
        ],
      );
    }
    for (const i of w.isolated) {
      await tx.run(
        "INSERT INTO margin_isolated (account_id, symbol, created_at) VALUES (?, ?, ?) ON CONFLICT (account_id, symbol) DO NOTHING",
        [i.accountId, i.symbol, now],
      );
    }
    if (w.interestAt !== null) {
      await tx.run(
        "INSERT INTO margin_clock (name, at) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET at = excluded.at",
        [INTEREST_CLOCK, w.interestAt],
      );
    }
  }

  async records(q: RecordQuery): Promise<RecordRow[]> {
    const where = ["account_id = ?"];
    const params: SqlValue[] = [q.accountId];
    const add = (sql: string, v: SqlValue | undefined) => {
      if (v === undefined) return;
      where.push(sql);
      params.push(v);
    };
    add("mode = ?", q.mode);
    add("symbol = ?", q.symbol);
    add("type = ?", q.type);
    add("asset = ?", q.asset);
    add("id < ?", q.before);
    params.push(q.limit);
    const rows = await this.db.all<RecordRecord>(
      `SELECT id, account_id, type, mode, symbol, asset, CAST(amount AS TEXT) AS amount,
              CAST(interest AS TEXT) AS interest, CAST(principal AS TEXT) AS principal, created_at
       FROM margin_records WHERE ${where.join(" AND ")} ORDER BY id DESC LIMIT ?`,
      params,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      accountId: Number(r.account_id),
      type: r.type as MarginRecordType,
      mode: r.mode as MarginAccountModeValue,
      symbol: r.symbol,
      asset: r.asset,
      amount: BigInt(r.amount),
      interest: r.interest === null ? null : BigInt(r.interest),
      principal: r.principal === null ? null : BigInt(r.principal),
      createdAt: Number(r.created_at),
    }));
  }
}
