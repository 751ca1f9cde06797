/**
 * `npm run airdrops:import -- <file.json|file.csv>`: validates every row of the file with
 * the airdrop zod schema and, only when all rows pass, writes them (insert or update by
 * slug) in one transaction into the database the server uses (DATABASE_URL or DATA_DIR).
 * A bad file imports nothing and lists each bad row; the exit code is 1.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { importAirdrops, parseImport } from "../src/modules/airdrops/index.ts";
import { contentTexts } from "../src/modules/content/index.ts";
import { loadConfig } from "../src/platform/config.ts";
import { openDb } from "../src/platform/db/index.ts";
import { loadMigrations, migrate } from "../src/platform/db/migrate.ts";
import { MIGRATIONS_DIR } from "../src/platform/db/migrations/index.ts";

const file = process.argv[2];
if (!file) {
  console.error("usage: npm run airdrops:import -- <file.json|file.csv>");
  process.exit(2);
}
const ext = path.extname(file).toLowerCase();
if (ext !== ".json" && ext !== ".csv") {
  console.error(`unsupported file type ${ext || "(none)"}: use .json or .csv`);
  process.exit(2);
}

const parsed = parseImport(
  readFileSync(path.resolve(process.env.INIT_CWD ?? process.cwd(), file), "utf8"),
  ext === ".json" ? "json" : "csv",
);
if (!parsed.ok) {
  console.error(`${file}: ${parsed.issues.length} bad row(s); nothing imported`);
  for (const issue of parsed.issues) {
    console.error(`  row ${issue.row}${issue.slug ? ` (${issue.slug})` : ""}: ${issue.problems.join("; ")}`);
  }
  process.exit(1);
}

const db = openDb(loadConfig());
try {
  await migrate(db, await loadMigrations(MIGRATIONS_DIR));
  const count = await importAirdrops(db, contentTexts, parsed.rows);
  console.log(`${file}: imported ${count} airdrop(s)`);
} finally {
  await db.close();
}
