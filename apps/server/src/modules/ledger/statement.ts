import {
  STATEMENT_EXPORT_MAX,
  type StatementLineView,
  type StatementPage,
  type statementQuerySchema,
} from "@meridian/contracts";
import {
  fromMinor,
  STATEMENT_KINDS_OF,
  STATEMENT_SKIPPED_KINDS,
  type StatementEntry,
  type StatementLine,
  statementLines,
} from "@meridian/domain";
import type { z } from "zod";
import type { Db, SqlValue } from "../../platform/db/types.ts";

type Query = z.output<typeof statementQuerySchema>;

/** Entries read per round while a filter drops lines; bounded so one request stays cheap. */
const MAX_ROUNDS = 5;

/**
 * The user's asset movements read from the journal (/transac). Entries are found by the
 * postings to the user's own accounts (`user:<id>:` up to `user:<id>;`, an index range),
 * so every kind of entry, including ones added later, appears without a change here.
 */
export class StatementReader {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  async page(accountId: number, q: Query): Promise<StatementPage> {
    const lines: StatementLine[] = [];
    let before = q.before;
    let next: number | null = null;
    for (let round = 0; round < MAX_ROUNDS && lines.length < q.limit; round++) {
      const entries = await this.#entries(accountId, { ...q, before }, q.limit);
      for (const e of entries) lines.push(...this.#filter(accountId, e, q));
      const last = entries.at(-1);
      next = entries.length === q.limit && last !== undefined ? last.id : null;
      if (next === null) break;
      before = next;
    }
    return { lines: lines.map(present), next };
  }

  /** Every line of the filter, newest first, up to STATEMENT_EXPORT_MAX, as CSV (RFC 4180). */
  async csv(accountId: number, q: Query): Promise<string> {
    const out = ["time_utc,type,wallet,symbol,asset,amount,entry_id"];
    let before = q.before;
    let count = 0;
    while (count < STATEMENT_EXPORT_MAX) {
      const entries = await this.#entries(accountId, { ...q, before }, 500);
      for (const e of entries) {
        for (const line of this.#filter(accountId, e, q)) {
          if (count >= STATEMENT_EXPORT_MAX) break;
          const v = present(line);
          out.push(
            [
              new Date(v.time).toISOString(),
              v.type,
              v.wallet,
              v.symbol ?? "",
              v.asset,
              v.amount,
              String(v.id),
            ]
              .map(csvCell)
              .join(","),
          );
          count++;
        }
      }
      const last = entries.at(-1);
      if (entries.length < 500 || last === undefined) break;
      before = last.id;
    }
    return `${out.join("\r\n")}\r\n`;
  }

  #filter(accountId: number, e: StatementEntry, q: Query): StatementLine[] {
    return statementLines(accountId, e).filter(
      (l) => (q.type === undefined || l.type === q.type) && (q.asset === undefined || l.asset === q.asset),
    );
  }

  async #entries(accountId: number, q: Query, limit: number): Promise<StatementEntry[]> {
    const where = ["p.account >= ?", "p.account < ?"];
    const params: SqlValue[] = [`user:${accountId}:`, `user:${accountId};`];
    if (q.asset !== undefined) {
      where.push("p.asset = ?");
      params.push(q.asset);
    }
    const jw = [`j.kind NOT IN (${STATEMENT_SKIPPED_KINDS.map(() => "?").join(", ")})`];
    params.push(...STATEMENT_SKIPPED_KINDS);
    const kinds = q.type === undefined ? undefined : (STATEMENT_KINDS_OF[q.type] ?? [q.type]);
    if (kinds !== undefined) {
      jw.push(`j.kind IN (${kinds.map(() => "?").join(", ")})`);
      params.push(...kinds);
    }
    if (q.before !== undefined) {
      jw.push("j.id < ?");
      params.push(q.before);
    }
    if (q.from !== undefined) {
      jw.push("j.created_at >= ?");
      params.push(q.from);
    }
    if (q.to !== undefined) {
      jw.push("j.created_at < ?");
      params.push(q.to);
    }
    params.push(limit);
    const heads = await this.#db.all<{ id: number; kind: string; created_at: number }>(
      `SELECT j.id, j.kind, j.created_at FROM paper_journal j
       WHERE j.id IN (SELECT p.entry_id FROM paper_postings p WHERE ${where.join(" AND ")})
         AND ${jw.join(" AND ")}
       ORDER BY j.id DESC LIMIT ?`,
      params,
    );
    if (heads.length === 0) return [];
    const ids = heads.map((h) => Number(h.id));
    const rows = await this.#db.all<{ entry_id: number; account: string; asset: string; amount: string }>(
      `SELECT entry_id, account, asset, CAST(amount AS TEXT) AS amount FROM paper_postings
       WHERE entry_id IN (${ids.map(() => "?").join(", ")})`,
      ids,
    );
    const postings = new Map<number, { account: string; asset: string; amount: bigint }[]>();
    for (const r of rows) {
      const id = Number(r.entry_id);
      const list = postings.get(id) ?? [];
      list.push({ account: r.account, asset: r.asset, amount: BigInt(r.amount) });
      postings.set(id, list);
    }
    return heads.map((h) => ({
      id: Number(h.id),
      kind: h.kind,
      time: Number(h.created_at),
      postings: postings.get(Number(h.id)) ?? [],
    }));
  }
}

function present(l: StatementLine): StatementLineView {
  return {
    id: l.entryId,
    time: l.time,
    type: l.type,
    wallet: l.wallet,
    symbol: l.symbol,
    asset: l.asset,
    amount: fromMinor(l.asset, l.amount),
  };
}

/** Quotes a CSV cell when needed; a leading =, + or @ is prefixed so spreadsheets do not run it. */
function csvCell(v: string): string {
  const safe = /^[=+@]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
