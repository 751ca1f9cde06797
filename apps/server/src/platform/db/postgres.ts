import { AsyncLocalStorage } from "node:async_hooks";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { type PlatformDb, type ScriptQueryable, TransactionMisuseError } from "./internal.ts";
import { toPostgresPlaceholders } from "./placeholders.ts";
import type { RunResult, SqlValue } from "./types.ts";

const INT8_OID = 20;
const UNIQUE_VIOLATION = "23505";

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
  /** The staging tables each pooled connection has made (temporary: one per session). */
  const staged = new WeakMap<pg.PoolClient, Set<string>>();
  const identifier = (name: string) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain identifier: ${name}`);
    return name;
  };

  return {
    ...base,
    dialect: "postgres",
    connection: {
      connectionString: options.connectionString,
      ...(options.schema === undefined ? {} : { schema: options.schema }),
    },
    location: `postgres://${url.hostname}:${url.port || "5432"}${url.pathname}${options.schema ? `#${options.schema}` : ""}`,
    async ping() {
      await pool.query("SELECT 1");
    },
    // PostgreSQL commits durably on its own (synchronous_commit); nothing to defer.
    deferSync: (fn) => fn(),
    async exclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
      if (closed) throw new Error("database is closed");
      const holder = await pool.connect();
      let broken = false;
      // A lost holder connection frees the lock server-side: noted, and its client dropped.
      const lost = () => {
        broken = true;
      };
      holder.on("error", lost);
      try {
        await holder.query("SELECT pg_advisory_lock(hashtext(current_schema() || '.meridian.' || $1))", [
          name,
        ]);
        try {
          return await fn();
        } finally {
          await holder
            .query("SELECT pg_advisory_unlock(hashtext(current_schema() || '.meridian.' || $1))", [name])
            .catch(lost);
        }
      } finally {
        holder.off("error", lost);
        holder.release(broken);
      }
    },
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
    // Most groups hold no repeat: every copy goes straight into its table, in one
    // transaction. A group with a repeat fails that COPY (unique violation), the
    // transaction is rolled back whole, and it goes again with each copy that has a
    // conflict clause taking the staging path: COPY into a temporary table (no WAL), then
    // one INSERT ... SELECT with the clause and a TRUNCATE in one simple query. Round trips
    // matter: each waits for the database process to be scheduled, which dominated under
    // load. A failure on the staging path may leave staging rows behind, so that
    // connection is dropped (and its table with it).
    async copyInto(copies) {
      if (closed) throw new Error("database is closed");
      const client = await pool.connect();
      let broken = false;
      const copy = async (into: string, list: string, rows: string) => {
        const stream = client.query(copyFrom(`COPY ${into} (${list}) FROM STDIN`));
        await pipeline(Readable.from([rows]), stream);
      };
      const plan = copies.map(({ table, columns, rows, conflict }) => ({
        target: identifier(table),
        list: columns.map(identifier).join(", "),
        rows,
        conflict,
      }));
      const inTransaction = async (write: (step: (typeof plan)[number]) => Promise<void>) => {
        await client.query("BEGIN");
        try {
          for (const step of plan) await write(step);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK").catch(() => {
            broken = true;
          });
          throw error;
        }
      };
      try {
        try {
          await inTransaction((step) => copy(step.target, step.list, step.rows));
          return;
        } catch (error) {
          if (broken || (error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
        }
        let tables = staged.get(client);
        if (tables === undefined) {
          tables = new Set();
          staged.set(client, tables);
        }
        const known = tables;
        // made in this transaction: known to exist once it committed
        const made: string[] = [];
        await inTransaction(async ({ target, list, rows, conflict }) => {
          if (conflict === undefined) return copy(target, list, rows);
          const stage = `copy_stage_${target}`;
          if (!known.has(stage) && !made.includes(stage)) {
            await client.query(`CREATE TEMPORARY TABLE IF NOT EXISTS ${stage} (LIKE ${target})`);
            made.push(stage);
          }
          await copy(stage, list, rows);
          await client.query(
            `INSERT INTO ${target} (${list}) SELECT ${list} FROM ${stage} ${conflict}; TRUNCATE ${stage}`,
          );
        });
        for (const stage of made) known.add(stage);
      } catch (error) {
        broken = true;
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...running]);
      await pool.end();
    },
  };
}
