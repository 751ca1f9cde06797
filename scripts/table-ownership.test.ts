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
 * owner (the list only shrinks; it is empty now). The test fails on any crossing not
 * listed here, and on a listed one that is gone, so the list stays true.
 */
const KNOWN_CROSSINGS: readonly string[] = [];

describe("table ownership", () => {
  const owner = owners();
  const known = new Set(owner.keys());
  const modules = serverModules;

  test("the architecture document lists the tables", () => {
    expect(known.size).toBeGreaterThan(30);
  });

  /** The crossings of one file's text, as `<module>/<file>: <table> (<owner>)`. */
  const crossingsIn = (module: string, file: string, text: string): string[] =>
    [...tablesNamed(text, known)]
      .filter((table) => owner.get(table) !== module)
      .map((table) => `${path.relative(modulesDir, file)}: ${table} (${owner.get(table)})`);

  const crossings = (module: string): string[] =>
    moduleSources(path.join(modulesDir, module)).flatMap((file) =>
      crossingsIn(module, file, readFileSync(file, "utf8")),
    );

  test("a module's SQL naming another module's tables is a crossing (fixtures)", () => {
    const vip = path.join(modulesDir, "vip/service.ts");
    const airdrops = path.join(modulesDir, "airdrops/writes.ts");
    // The two crossings this test once listed, written back: each is found again.
    expect(crossingsIn("vip", vip, 'db.all("SELECT account_id, asset FROM margin_loans")')).toEqual([
      "vip/service.ts: margin_loans (margin)",
    ]);
    expect(
      crossingsIn(
        "airdrops",
        airdrops,
        'await tx.run(`INSERT INTO content_translations (entity) VALUES (?)`); await tx.all("SELECT * FROM content_faq");',
      ),
    ).toEqual([
      "airdrops/writes.ts: content_translations (content)",
      "airdrops/writes.ts: content_faq (content)",
    ]);
    // Its own tables are no crossing.
    expect(crossingsIn("vip", vip, "INSERT INTO vip_status (user_id) VALUES (?)")).toEqual([]);
  });

  test.each(modules)("%s's SQL names only its own tables (or a listed crossing)", (module) => {
    expect(crossings(module).filter((c) => !KNOWN_CROSSINGS.includes(c))).toEqual([]);
  });

  test("every listed crossing is still there (remove it from the list once it is gone)", () => {
    const all = modules.flatMap(crossings);
    expect(KNOWN_CROSSINGS.filter((c) => !all.includes(c))).toEqual([]);
  });
});
