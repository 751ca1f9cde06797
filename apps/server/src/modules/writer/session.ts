import pg from "pg";
import { toPostgresPlaceholders } from "../../platform/db/placeholders.ts";
import type { Queryable, RunResult, SqlValue } from "../../platform/db/types.ts";

/**
 * One PostgreSQL connection kept for the life of the process (the writer lease's
 * session: its backend pid stands for this process, see lease.ts). A lost connection is
 * opened again on the next statement, with a new pid: a writer whose session was lost is
 * then taken over, and deposed by the fence.
 */
export function pinnedSession(connectionString: string): Queryable & { close(): Promise<void> } {
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  const connection = (): Promise<pg.Client> => {
    if (client !== null) return Promise.resolve(client);
    connecting ??= (async () => {
      const c = new pg.Client({ connectionString, application_name: "meridian-writer-lease" });
      c.on("error", () => {
        if (client === c) client = null;
      });
      try {
        await c.connect();
        client = c;
        return c;
      } finally {
        connecting = null;
      }
    })();
    return connecting;
  };
  const query = async <T extends pg.QueryResultRow>(sql: string, params: readonly SqlValue[] = []) =>
    (await connection()).query<T>(toPostgresPlaceholders(sql), params as unknown[]);
  return {
    dialect: "postgres",
    all: async <T extends object>(sql: string, params?: readonly SqlValue[]) =>
      (await query<T & pg.QueryResultRow>(sql, params)).rows as T[],
    get: async <T extends object>(sql: string, params?: readonly SqlValue[]) =>
      (await query<T & pg.QueryResultRow>(sql, params)).rows[0] as T | undefined,
    run: async (sql: string, params?: readonly SqlValue[]): Promise<RunResult> => ({
      changes: (await query(sql, params)).rowCount ?? 0,
    }),
    close: async () => {
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
