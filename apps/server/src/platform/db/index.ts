import path from "node:path";
import type { Config } from "../config.ts";
import type { PlatformDb } from "./internal.ts";
import { openPostgres } from "./postgres.ts";
import { openSqlite } from "./sqlite.ts";

export { ddl } from "./ddl.ts";
export type { CopyInput, PlatformDb, ScriptQueryable } from "./internal.ts";
export { TransactionMisuseError } from "./internal.ts";
export { KeyedMutex } from "./mutex.ts";
export type { Db, Dialect, Queryable, RunResult, SqlValue } from "./types.ts";

/** PostgreSQL when DATABASE_URL is set, otherwise SQLite at `<DATA_DIR>/meridian.db`. */
export function openDb(
  config: Pick<Config, "databaseUrl" | "dataDir"> & Partial<Pick<Config, "sqliteSynchronous">>,
): PlatformDb {
  if (config.databaseUrl) return openPostgres({ connectionString: config.databaseUrl });
  return openSqlite(path.join(config.dataDir, "meridian.db"), {
    synchronous: config.sqliteSynchronous ?? "group",
  });
}
