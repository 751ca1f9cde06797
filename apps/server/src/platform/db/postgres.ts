import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { type PlatformDb, type ScriptQueryable, TransactionMisuseError } from "./internal.ts";
import { toPostgresPlaceholders } from "./placeholders.ts";
import type { RunResult, SqlValue } from "./types.ts";

const INT8_OID = 20;

/** BIGINT as a number when exact, else the decimal string (never a rounded number). */
function parseInt8(value: string): number | string {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
}

const typeParsers = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID && format !== "binary"
      ? parseInt8
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

export interface PostgresOptions {
  connectionString: string;
  /** search_path for every connection (tests run each in a schema of their own). */
  schema?: string;
  max?: number;
}

type Client = pg.Pool | pg.PoolClient;

function queryable(client: Client, guard: () => void = () => {}): ScriptQueryable {
  const query = async <T>(sql: string, params: readonly SqlValue[] = []) => {
    guard();
    return client.query<T & pg.QueryResultRow>(toPostgresPlaceholders(sql), params as unknown[]);
  };
  return {
    dialect: "postgres",
    async all<T extends object>(sql: string, params?: readonly SqlValue[]) {
      return (await query<T>(sql, params)).rows as T[];
    },
    async get<T extends object>(sql: string, params?: readonly SqlValue[]) {
      return (await query<T>(sql, params)).rows[0] as T | undefined;
    },
    async run(sql: string, params?: readonly SqlValue[]): Promise<RunResult> {
      return { changes: (await query(sql, params)).rowCount ?? 0 };
    },
    async exec(sql: string) {
      guard();
      await client.query(sql);
    },
  };
}

/** PostgreSQL through a `pg` Pool; `?` placeholders become `$n`. */
export function openPostgres(options: PostgresOptions): PlatformDb {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    types: typeParsers,
    ...(options.schema ? { options: `-c search_path="${options.schema.replaceAll('"', '""')}"` } : {}),
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  const inTransaction = new AsyncLocalStorage<boolean>();
  const running = new Set<Promise<unknown>>();
  const base = queryable(pool, () => {
    if (inTransaction.getStore() === true) {
      throw new TransactionMisuseError("db.* called inside a transaction callback: use the tx it was handed");
    }
  });
  const url = new URL(options.connectionString);
  let closed = false;

  return {
    ...base,
    dialect: "postgres",
    location: `postgres://${url.hostname}:${url.port || "5432"}${url.pathname}${options.schema ? `#${options.schema}` : ""}`,
    async ping() {
      await pool.query("SELECT 1");
    },
    // PostgreSQL commits durably on its own (synchronous_commit); nothing to defer.
    deferSync: (fn) => fn(),
    transaction<T>(fn: (tx: ScriptQueryable) => Promise<T>): Promise<T> {
      if (closed) return Promise.reject(new Error("database is closed"));
      if (inTransaction.getStore() === true) {
        return Promise.reject(new TransactionMisuseError("nested transaction: use the tx you were handed"));
      }
      const work = (async () => {
        const client = await pool.connect();
        let open = true;
        let broken = false;
        // The server may end a session inside a transaction (idle_in_transaction_session_timeout,
        // a terminated backend): the statement fails and the client is discarded, never an
        // uncaught 'error' event.
        const onError = () => {
          broken = true;
        };
        client.on("error", onError);
        const tx = queryable(client, () => {
          if (!open) throw new TransactionMisuseError("transaction already finished");
        });
        try {
          await client.query("BEGIN");
          const result = await inTransaction.run(true, () => fn(tx));
          await client.query("COMMIT");
          return result;
        } catch (error) {
          try {
            await client.query("ROLLBACK");
          } catch {
            broken = true;
          }
          throw error;
        } finally {
          open = false;
          client.off("error", onError);
          client.release(broken);
        }
      })();
      running.add(work);
      const forget = () => running.delete(work);
      work.then(forget, forget);
      return work;
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...running]);
      await pool.end();
    },
  };
}
