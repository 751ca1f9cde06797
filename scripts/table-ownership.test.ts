/**
 * Each table has one owner (docs/architecture.md, "Tables"): the only server module whose
 * SQL names it. A module that needs another's data asks that module (its index.ts), so a
 * table's layout can change without a hunt through the tree. Test files are exempt: they
 * check what was stored.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { moduleSources, modulesDir, serverModules } from "./lib/server-modules.ts";
import { repoRoot } from "./web-build.ts";

/** Table -> owning module, from the table in docs/architecture.md. */
function owners(): Map<string, string> {
  const doc = readFileSync(path.join(repoRoot, "docs/architecture.md"), "utf8");
  const section = doc.slice(doc.indexOf("**Tables.**"));
  const map = new Map<string, string>();
  for (const row of section.split("\n").filter((line) => line.startsWith("|"))) {
    const [, who, tables] = row.split("|").map((cell) => cell.trim());
    if (who === undefined || tables === undefined || who === "Module" || who.startsWith("---")) continue;
    const modules = [...who.matchAll(/`([a-z-]+)`/g)].map((m) => m[1] ?? "");
    // A row naming several modules lists their tables in the same order, split by `;`.
    const groups = tables.split(";");
    groups.forEach((group, i) => {
      const owner = modules.length > 1 ? modules[i] : (modules[0] ?? who);
      for (const m of group.matchAll(/`([a-z_]+)`/g)) map.set(m[1] ?? "", owner ?? who);
    });
  }
  return map;
}

/** Table names a file's SQL uses: after FROM, JOIN, INTO, UPDATE or TABLE. */
function tablesNamed(text: string, known: Set<string>): Set<string> {
  const found = new Set<string>();
  for (const m of text.matchAll(
    /\b(?:FROM|JOIN|INTO|UPDATE|TABLE(?: IF (?:NOT )?EXISTS)?)\s+"?([a-z_]+)"?/g,
  )) {
    if (known.has(m[1] ?? "")) found.add(m[1] ?? "");
  }
  return found;
}

/**
 * SQL that still names another module's tables, each to be replaced by a call to the
 * owner (the list only shrinks). The test fails on any crossing not listed here, and on
 * a listed one that is gone, so the list stays true.
 */
const KNOWN_CROSSINGS: readonly string[] = [
  // airdrops writes its translations and FAQ into the content module's tables
  "airdrops/repo.ts: content_translations (content)",
  "airdrops/repo.ts: content_faq (content)",
  "airdrops/writes.ts: content_translations (content)",
  "airdrops/writes.ts: content_faq (content)",
  // the key check reads the user's state
  "bot-api/keys.ts: users (accounts)",
  // the search index and the artwork seeder read the items they index or draw
  "content/index.ts: airdrops (airdrops)",
  "content/index.ts: tg_apps (tg-apps)",
  "media/seed.ts: airdrops (airdrops)",
  "media/seed.ts: tg_apps (tg-apps)",
  // VIP levels sum 30-day volumes and loans, and read the users
  "vip/service.ts: users (accounts)",
  "vip/service.ts: paper_trades (paper)",
  "vip/service.ts: futures_trades (futures)",
  "vip/service.ts: margin_loans (margin)",
];

describe("table ownership", () => {
  const owner = owners();
  const known = new Set(owner.keys());
  const modules = serverModules;

  test("the architecture document lists the tables", () => {
    expect(known.size).toBeGreaterThan(30);
  });

  const crossings = (module: string): string[] => {
    const foreign: string[] = [];
    for (const file of moduleSources(path.join(modulesDir, module))) {
      for (const table of tablesNamed(readFileSync(file, "utf8"), known)) {
        if (owner.get(table) !== module)
          foreign.push(`${path.relative(modulesDir, file)}: ${table} (${owner.get(table)})`);
      }
    }
    return foreign;
  };

  test.each(modules)("%s's SQL names only its own tables (or a listed crossing)", (module) => {
    expect(crossings(module).filter((c) => !KNOWN_CROSSINGS.includes(c))).toEqual([]);
  });

  test("every listed crossing is still there (remove it from the list once it is gone)", () => {
    const all = modules.flatMap(crossings);
    expect(KNOWN_CROSSINGS.filter((c) => !all.includes(c))).toEqual([]);
  });
});
