import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Logger } from "../logger.ts";
import type { PlatformDb } from "./internal.ts";
import type { Db } from "./types.ts";

export interface SeedContext {
  log: Logger;
}

/**
 * What a module's `seed.ts` exports. `seed` must be idempotent (ON CONFLICT DO NOTHING):
 * it runs once per `seedVersion` (default 1) and again whenever that number grows.
 */
export interface SeedModule {
  seed(db: Db, context: SeedContext): Promise<void>;
  seedVersion?: number;
}

export interface Seed extends SeedModule {
  name: string;
}

/** Finds `<modulesDir>/<module>/seed.ts`, one per module, ordered by module name. */
export async function loadSeeds(modulesDir: string): Promise<Seed[]> {
  if (!fs.existsSync(modulesDir)) return [];
  const seeds: Seed[] = [];
  const modules = fs
    .readdirSync(modulesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  for (const name of modules) {
    const file = path.join(modulesDir, name, "seed.ts");
    if (!fs.existsSync(file)) continue;
    const mod: Partial<SeedModule> = await import(pathToFileURL(file).href);
    if (typeof mod.seed !== "function") throw new Error(`${file} does not export seed(db, context)`);
    seeds.push({ name, seed: mod.seed, seedVersion: mod.seedVersion ?? 1 });
  }
  return seeds;
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
    const version = seed.seedVersion ?? 1;
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
