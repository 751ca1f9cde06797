import type { Db, Queryable } from "./types.ts";

/**
 * What the platform itself needs beyond the repository contract: running a script of
 * several statements (migrations) and a liveness ping. Repositories code against `Db`.
 */
export interface ScriptQueryable extends Queryable {
  /** Runs a multi-statement script without parameters. */
  exec(sql: string): Promise<void>;
}

export interface PlatformDb extends Db {
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: ScriptQueryable) => Promise<T>): Promise<T>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Runs start-up work (migrations, demo seeds) whose writes need not each wait to be on
   * disk: they are synced once when `fn` resolves (SQLite group mode; a plain call
   * elsewhere). Never for work that answers a client.
   */
  deferSync<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Runs `fn` while holding the named lock that every process on this database shares
   * (PostgreSQL: a session advisory lock per schema and name, on a connection of its own,
   * so `fn` may use the pool and transactions freely). Start-up work (migrations, shared
   * secrets, demo seeds) runs under it, so instances started together take turns. SQLite
   * is served by one process: `fn` simply runs.
   */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /**
   * PostgreSQL only (undefined on SQLite): bulk rows into tables, committed together in
   * one transaction, in order. Each copy's `rows` is COPY's text format for its `columns`
   * (a line per row, tab-separated; backslash, tab, newline and carriage return escaped
   * with a backslash). COPYed straight in; when that meets a unique key already there
   * (nothing written), the whole transaction goes again with each copy that has a
   * `conflict` (e.g. `ON CONFLICT (...) DO NOTHING`) COPYed into a session-local staging
   * table and inserted with it, which COPY alone cannot do. Resolves once committed.
   */
  copyInto?(copies: readonly CopyInput[]): Promise<void>;
  /**
   * PostgreSQL only: what it was opened with, so a worker thread can open connections of
   * its own to the same database and schema. Secret (the URL may hold a password): never log it.
   */
  readonly connection?: { connectionString: string; schema?: string };
  /** Where the data lives, safe to log (no credentials). */
  readonly location: string;
}

/** One table's rows for `PlatformDb.copyInto`. */
export interface CopyInput {
  table: string;
  columns: readonly string[];
  rows: string;
  conflict?: string;
}

export class TransactionMisuseError extends Error {
  override name = "TransactionMisuseError";
}
