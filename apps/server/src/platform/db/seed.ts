import type { Logger } from "../logger.ts";
import type { PlatformDb } from "./internal.ts";
import type { Db } from "./types.ts";

export interface SeedContext {
  log: Logger;
}

/**
 * A module's demo data, listed in `src/modules/index.ts`. `seed` must be idempotent
 * (ON CONFLICT DO NOTHING): it runs after migrations once per `version` (default 1),
 * and again whenever that number grows.
 */
export interface Seed {
  /** Unique, usually the module name. */
  name: string;
  version?: number;
  seed(db: Db, context: SeedContext): Promise<void>;
}

/** Runs each seed whose recorded version is behind; returns the names run. */
export async function runSeeds(db: PlatformDb, seeds: readonly Seed[], log: Logger): Promise<string[]> {
  await db.exec(
    "CREATE TABLE IF NOT EXISTS schema_seeds (name TEXT PRIMARY KEY, version INTEGER NOT NULL, applied_at BIGINT NOT NULL)",
  );
  const rows = await db.all<{ name: string; version: number }>("SELECT name, version FROM schema_seeds");
  const recorded = new Map(rows.map((row) => [row.name, row.version]));
  const ran: string[] = [];
  for (const seed of seeds) {
    const version = seed.version ?? 1;
    if ((recorded.get(seed.name) ?? 0) >= version) continue;
    await seed.seed(db, { log: log.child({ seed: seed.name }) });
    await db.run(
      `INSERT INTO schema_seeds (name, version, applied_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET version = excluded.version, applied_at = excluded.applied_at`,
      [seed.name, version, Date.now()],
    );
    ran.push(seed.name);
  }
  return ran;
}
