/**
 * The one database contract every repository codes against. Two implementations:
 * SQLite through `node:sqlite` (the embedded default) and PostgreSQL through `pg`
 * (when DATABASE_URL is set). Repositories write one SQL text for both:
 *
 * - placeholders are `?` (translated to `$1..$n` for PostgreSQL);
 * - booleans are stored as integers 0/1, timestamps as integer epoch milliseconds
 *   (BIGINT), money and quantities as TEXT decimals or BIGINT minor units;
 * - `INSERT ... ON CONFLICT (...) DO NOTHING/UPDATE` and `RETURNING` work on both.
 *
 * NOTE: SQLite has one connection; `transaction` serialises callers so that
 * interleaved async transactions never share a BEGIN. Never call `db.*` from
 * inside a transaction callback: use the `tx` handed to it.
 */
export type SqlValue = string | number | bigint | null | Uint8Array;

export type Dialect = "sqlite" | "postgres";

export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
}

export interface Queryable {
  readonly dialect: Dialect;
  /** All rows. Integer columns come back as `number` (BIGINT beyond 2^53 as `bigint` on SQLite, string on PostgreSQL: read money as TEXT). */
  all<T extends object>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T extends object>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** A statement without result rows. */
  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult>;
}

export interface Db extends Queryable {
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Closes the pool or file handle; waits for running transactions. */
  close(): Promise<void>;
}
