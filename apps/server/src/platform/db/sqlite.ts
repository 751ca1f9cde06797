import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { type PlatformDb, type ScriptQueryable, TransactionMisuseError } from "./internal.ts";
import { Mutex } from "./mutex.ts";
import type { RunResult, SqlValue } from "./types.ts";
import { type CheckpointStats, WalCheckpointer, type WalCheckpointerOptions } from "./wal-checkpointer.ts";
import { WalSync } from "./wal-sync.ts";

type Row = Record<string, SQLInputValue>;

const STATEMENT_CACHE_LIMIT = 500;

/** Integers come back as bigint so none is silently rounded; safe ones become numbers. */
function normaliseRow<T>(row: Row): T {
  for (const key in row) {
    const value = row[key];
    if (typeof value === "bigint" && value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER) {
      row[key] = Number(value);
    }
  }
  return row as T;
}

export interface SqliteDb extends PlatformDb {
  /** WAL checkpoints done off the event loop (none for `:memory:`). */
  readonly checkpoints: CheckpointStats | null;
}

export interface SqliteOptions {
  checkpoint?: WalCheckpointerOptions;
  /**
   * How a commit reaches the disk before it is acknowledged:
   * - `group` (default): `PRAGMA synchronous = NORMAL`, and every write resolves only
   *   after an fdatasync of the WAL on the thread pool, shared by the commits made
   *   meanwhile (wal-sync.ts). Durable like FULL, without blocking the event loop.
   * - `full`: `PRAGMA synchronous = FULL`: SQLite fsyncs the WAL inside each COMMIT, on
   *   the event loop.
   * - `normal`: syncs at checkpoints only: a process crash loses nothing, a power cut
   *   may lose the last acknowledged commits. Throwaway data only.
   */
  synchronous?: "group" | "full" | "normal";
}

/**
 * SQLite through `node:sqlite`: one connection, WAL, durable commits (see `synchronous`), foreign keys on. Async on the
 * outside so repositories read the same as on PostgreSQL.
 *
 * NOTE: with one connection, a statement issued while another caller's transaction is
 * open would join it. So every statement outside a transaction waits for the mutex
 * when it is held, and `db.*` called from inside a transaction callback throws.
 * node:sqlite is synchronous: open one handle per file per process (a second handle
 * waiting on a lock would block the event loop the first needs to commit). The one
 * exception is the WAL checkpointer's thread (wal-checkpointer.ts): its PASSIVE
 * checkpoints never take the writer lock, so this connection never waits for it.
 */
export function openSqlite(file: string, options: SqliteOptions = {}): SqliteDb {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const conn = new DatabaseSync(file, { enableForeignKeyConstraints: true, timeout: 5000 });
  const mode = options.synchronous ?? "group";
  conn.exec(
    `PRAGMA journal_mode = WAL; PRAGMA synchronous = ${mode === "full" ? "FULL" : "NORMAL"}; PRAGMA foreign_keys = ON;`,
  );
  const walSync = mode === "group" && file !== ":memory:" ? new WalSync(file) : null;
  const deferred = new AsyncLocalStorage<boolean>();
  /** Resolves `value` once the commit that produced it is on disk (group mode). */
  const durable = async <T>(value: T): Promise<T> => {
    if (walSync !== null && deferred.getStore() !== true) await walSync.durable();
    return value;
  };
  const statements = new Map<string, StatementSync>();
  const mutex = new Mutex();
  const inTransaction = new AsyncLocalStorage<boolean>();
  let closed = false;
  const checkpointer =
    file === ":memory:"
      ? null
      : new WalCheckpointer(
          file,
          {
            setAutocheckpoint: (pages) => {
              if (!closed) conn.exec(`PRAGMA wal_autocheckpoint = ${pages}`);
            },
            exclusive: (fn) => mutex.run(fn),
          },
          options.checkpoint,
        );

  const prepare = (sql: string): StatementSync => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = conn.prepare(sql);
      statement.setReadBigInts(true);
      if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
      statements.set(sql, statement);
    }
    return statement;
  };

  const ops = {
    all<T>(sql: string, params: readonly SqlValue[] = []): T[] {
      return (prepare(sql).all(...params) as Row[]).map((row) => normaliseRow<T>(row));
    },
    get<T>(sql: string, params: readonly SqlValue[] = []): T | undefined {
      const row = prepare(sql).get(...params) as Row | undefined;
      return row === undefined ? undefined : normaliseRow<T>(row);
    },
    run(sql: string, params: readonly SqlValue[] = []): RunResult {
      return { changes: Number(prepare(sql).run(...params).changes) };
    },
  };

  /** Outside a transaction: run now when free, else queue behind the running transaction. */
  const outside = async <T>(fn: () => T): Promise<T> => {
    if (closed) throw new Error("database is closed");
    if (inTransaction.getStore() === true) {
      throw new TransactionMisuseError("db.* called inside a transaction callback: use the tx it was handed");
    }
    return mutex.locked ? mutex.run(async () => fn()) : fn();
  };
  /** A statement that may write commits on its own (autocommit). */
  const write = <T>(fn: () => T): T => {
    const result = fn();
    checkpointer?.committed();
    return result;
  };

  return {
    dialect: "sqlite",
    location: file,
    all: (sql, params) => outside(() => ops.all(sql, params)),
    get: (sql, params) => outside(() => ops.get(sql, params)),
    run: (sql, params) => outside(() => write(() => ops.run(sql, params))).then(durable),
    exec: (sql) => outside(() => write(() => conn.exec(sql))).then(durable),
    checkpoints: checkpointer?.stats ?? null,
    ping: () => outside(() => void ops.get("SELECT 1 AS ok")),
    // One process serves a SQLite file (docs/operations.md): nothing to take turns with.
    exclusive: (_name, fn) => fn(),
    async deferSync(fn) {
      const result = await deferred.run(true, fn);
      await walSync?.durable();
      return result;
    },
    transaction<T>(fn: (tx: ScriptQueryable) => Promise<T>): Promise<T> {
      if (inTransaction.getStore() === true) {
        return Promise.reject(new TransactionMisuseError("nested transaction: use the tx you were handed"));
      }
      if (closed) return Promise.reject(new Error("database is closed"));
      // The sync waits outside the mutex: commits made while it runs share the next one.
      return mutex
        .run(async () => {
          let open = true;
          const guard = <R>(op: () => R): Promise<R> => {
            if (!open) return Promise.reject(new TransactionMisuseError("transaction already finished"));
            try {
              return Promise.resolve(op());
            } catch (error) {
              return Promise.reject(error);
            }
          };
          const tx: ScriptQueryable = {
            dialect: "sqlite",
            all: (sql, params) => guard(() => ops.all(sql, params)),
            get: (sql, params) => guard(() => ops.get(sql, params)),
            run: (sql, params) => guard(() => ops.run(sql, params)),
            exec: (sql) => guard(() => conn.exec(sql)),
          };
          conn.exec("BEGIN IMMEDIATE");
          try {
            const result = await inTransaction.run(true, () => fn(tx));
            conn.exec("COMMIT");
            checkpointer?.committed();
            return result;
          } catch (error) {
            if (conn.isTransaction) conn.exec("ROLLBACK");
            throw error;
          } finally {
            open = false;
          }
        })
        .then(durable);
    },
    async close() {
      if (closed) return;
      closed = true;
      await mutex.idle();
      await walSync?.close();
      await checkpointer?.stop();
      conn.close();
    },
  };
}
