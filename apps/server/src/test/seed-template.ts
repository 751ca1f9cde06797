/**
 * A seeded SQLite database for test servers to start from: what a production start writes
 * before it answers (migrations, then the demo seeds of `src/modules/index.ts`), made once
 * per browser-suite run (scripts/e2e-global-setup.ts) and copied into each test server's
 * fresh DATA_DIR by scripts/lib/server-process.ts. Seeding the content library (sanitising
 * every airdrop and app through jsdom) is most of a first start's CPU; a copy is a file.
 *
 * Left out, so every server still makes its own: the demo accounts (their random
 * passwords are printed in that server's log, which tests read) and the shared secrets
 * (sealed under that server's own SECRETS_KEY). A server started on the copy runs the
 * same start-up: migrations (none left), shared secrets, the seeds still behind (the
 * demo accounts), the stored-HTML refresh.
 *
 * CLI (Node 24): `node apps/server/src/test/seed-template.ts <dir>` writes `<dir>/meridian.db`.
 */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { pino } from "pino";
import { accountsSeed } from "../modules/accounts/index.ts";
import { moduleSeeds } from "../modules/index.ts";
import { openDb } from "../platform/db/index.ts";
import { loadMigrations, migrate } from "../platform/db/migrate.ts";
import { MIGRATIONS_DIR } from "../platform/db/migrations/index.ts";
import { runSeeds } from "../platform/db/seed.ts";

/** The seeds a template holds: every module's except the demo accounts. */
export const templateSeeds = moduleSeeds.filter((seed) => seed !== accountsSeed);

/** Migrates and seeds `<dir>/meridian.db` (which must not exist yet) and closes it. */
export async function makeSeedTemplate(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "meridian.db");
  if (existsSync(file)) throw new Error(`${file} exists already`);
  const db = openDb({ databaseUrl: undefined, dataDir: dir });
  try {
    // As at start: one WAL sync at the end rather than one per seed write.
    await db.deferSync(async () => {
      await migrate(db, await loadMigrations(MIGRATIONS_DIR));
      await runSeeds(db, templateSeeds, pino({ level: "warn" }));
    });
  } finally {
    // NOTE: the checkpoint thread is unref'd; a server's sockets keep its loop alive while
    // close() waits for that thread to exit, this script has nothing else to.
    const alive = setInterval(() => {}, 1_000);
    await db.close().finally(() => clearInterval(alive));
  }
  return file;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (dir === undefined) {
    process.stderr.write("usage: node apps/server/src/test/seed-template.ts <dir>\n");
    process.exit(2);
  }
  process.stdout.write(`${await makeSeedTemplate(path.resolve(dir))}\n`);
}
