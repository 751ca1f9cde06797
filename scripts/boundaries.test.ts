/**
 * The dependency rules of docs/architecture.md hold: Biome's overrides refuse each
 * forbidden import (and let the allowed twin through, so the test can fail both ways),
 * every workspace declares the workspace packages it imports, and the tracker takes only
 * types from contracts.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { repoRoot } from "./web-build.ts";

interface Fixture {
  /** Where the file would live in the repository. */
  file: string;
  source: string;
  /** Whether Biome must refuse it. */
  refused: boolean;
}

const importOf = (specifier: string) => `import { x } from "${specifier}";\nexport const y = x;\n`;

/** A fixture under apps/server/src. */
const server = (file: string, specifier: string, refused: boolean): Fixture => ({
  file: `apps/server/src/${file}`,
  source: importOf(specifier),
  refused,
});

/** A fixture under apps/web/app. */
const web = (file: string, specifier: string, refused: boolean): Fixture => ({
  file: `apps/web/app/${file}`,
  source: importOf(specifier),
  refused,
});

const fixtures: Fixture[] = [
  { file: "packages/domain/src/f1.ts", source: importOf("@meridian/contracts"), refused: true },
  { file: "packages/domain/src/f2.ts", source: importOf("node:fs"), refused: true },
  { file: "packages/domain/src/f3.ts", source: importOf("@meridian/web"), refused: true },
  { file: "packages/domain/src/f4.ts", source: importOf("pg"), refused: true },
  { file: "packages/domain/src/ok.ts", source: importOf("./ledger/index.ts"), refused: false },
  { file: "packages/tracker/src/f1.ts", source: importOf("@meridian/client"), refused: true },
  { file: "packages/tracker/src/f2.ts", source: importOf("@meridian/server"), refused: true },
  { file: "packages/tracker/src/f3.ts", source: importOf("node:crypto"), refused: true },
  { file: "packages/tracker/src/ok.ts", source: importOf("./ids.ts"), refused: false },
  { file: "packages/client/src/f1.ts", source: importOf("@meridian/web"), refused: true },
  { file: "packages/contracts/src/f1.ts", source: importOf("@meridian/server/app"), refused: true },
  { file: "packages/client/src/ok.ts", source: importOf("@meridian/contracts"), refused: false },
  { file: "apps/web/app/f1.ts", source: importOf("@meridian/server"), refused: true },
  { file: "apps/web/app/f2.ts", source: importOf("node:sqlite"), refused: true },
  { file: "apps/web/app/f3.ts", source: importOf("../../server/src/app.ts"), refused: true },
  { file: "apps/web/app/ok.ts", source: importOf("@meridian/client"), refused: false },
  // The web app calls the API through the client, never with a bare fetch.
  { file: "apps/web/app/f4.ts", source: 'export const y = () => fetch("/v1/x");\n', refused: true },
  // The trading features share through features/trading-screen and app/ui, not by reaching
  // into each other; the web's other rules still hold there.
  web("features/margin/f1.ts", "../trade/order-panel.tsx", true),
  web("features/futures/f1.ts", "../margin/api.ts", true),
  web("features/trade/f1.ts", "../../features/futures/api.ts", true),
  web("features/trade/f2.ts", "@meridian/server", true),
  {
    file: "apps/web/app/features/futures/f2.ts",
    source: 'export const y = () => fetch("/v1/x");\n',
    refused: true,
  },
  web("features/margin/ok.ts", "../trading-screen/order-form.tsx", false),
  web("features/futures/ok.ts", "../../ui/data-table.tsx", false),
  web("features/trade/ok.ts", "../../lib/client-id.ts", false),
  web("features/trade/ok2.ts", "./order-panel.tsx", false),
  web("features/trading-screen/ok.ts", "../../ui/amounts.ts", false),
  // Server modules reach each other only through index.ts.
  server("modules/accounts/f1.ts", "../gateway-sign/routes.ts", true),
  server("modules/tg-apps/f1.ts", "../accounts/guard.ts", true),
  server("platform/f1.ts", "../modules/accounts/repo.ts", true),
  server("f1.test.ts", "./modules/gateway-sign/replay.ts", true),
  server("modules/index.ts", "./accounts/seed.ts", true),
  server("modules/accounts/ok.ts", "../gateway-sign/index.ts", false),
  server("modules/accounts/ok2.ts", "./guard.ts", false),
  server("modules/tg-apps/ok.ts", "../../platform/errors.ts", false),
  server("platform/ok.ts", "../modules/accounts/index.ts", false),
  // A module reaches the rest of the server only through the platform: not another
  // module by a longer path, not the app; its tests may also use the shared test helpers.
  server("modules/accounts/f2.ts", "../../modules/paper/repo.ts", true),
  server("modules/accounts/f3.ts", "../../app.ts", true),
  server("modules/accounts/f4.ts", "../../test/accounts.ts", true),
  server("modules/accounts/f5.test.ts", "../../modules/paper/repo.ts", true),
  server("modules/accounts/ok3.test.ts", "../../app.ts", false),
  server("modules/accounts/ok4.test.ts", "../../test/accounts.ts", false),
  server("modules/media/artwork/f1.ts", "../../paper/repo.ts", true),
  server("modules/media/artwork/ok.ts", "../../../platform/errors.ts", false),
  // The registry and the composition root (modules/*.ts) take modules by index.ts.
  server("modules/f1.ts", "./paper/service.ts", true),
  server("modules/ok.ts", "./paper/index.ts", false),
  // The server takes packages by name and never the web app.
  server("platform/f2.ts", "@meridian/domain/src/ledger/index.ts", true),
  server("platform/f3.ts", "../../../../packages/domain/src/ledger/index.ts", true),
  server("modules/paper/f1.ts", "@meridian/web", true),
  server("f2.ts", "../../web/app/root.tsx", true),
  server("platform/ok2.ts", "@meridian/domain", false),
];

const scratch = mkdtempSync(path.join(os.tmpdir(), "meridian-boundaries-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The rules that draw the boundaries. */
const RULES = new Set(["lint/style/noRestrictedImports", "lint/style/noRestrictedGlobals"]);

/** Lints the fixtures under a copy of biome.jsonc (VCS off: the scratch folder is no checkout). */
function refusedFiles(): Set<string> {
  // The configuration's comments are whole lines.
  const text = readFileSync(path.join(repoRoot, "biome.jsonc"), "utf8").replace(/^\s*\/\/.*$/gm, "");
  const config = JSON.parse(text) as Record<string, unknown>;
  delete config.$schema;
  config.vcs = { enabled: false };
  writeFileSync(path.join(scratch, "biome.json"), JSON.stringify(config));
  for (const fixture of fixtures) {
    mkdirSync(path.dirname(path.join(scratch, fixture.file)), { recursive: true });
    writeFileSync(path.join(scratch, fixture.file), fixture.source);
  }
  const biome = path.join(repoRoot, "node_modules/.bin/biome");
  const run = spawnSync(biome, ["lint", "--reporter=json", "--max-diagnostics=none", "."], {
    cwd: scratch,
    encoding: "utf8",
  });
  const report = JSON.parse(run.stdout) as {
    diagnostics: { category: string; location: { path: string } }[];
  };
  return new Set(
    report.diagnostics.filter((d) => RULES.has(d.category)).map((d) => d.location.path.replaceAll("\\", "/")),
  );
}

describe("lint boundaries", () => {
  const refused = refusedFiles();
  test.each(fixtures)("$file importing as written: refused=$refused", (fixture) => {
    expect(refused.has(fixture.file)).toBe(fixture.refused);
  });
});

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "build" || name.startsWith(".")) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx)$/.test(name)) out.push(full);
  }
  return out;
}

const workspaces = [
  "apps/web",
  "apps/server",
  "bench",
  ...readdirSync(path.join(repoRoot, "packages")).map((p) => `packages/${p}`),
];

describe("workspace manifests", () => {
  test.each(workspaces)("%s declares every workspace package it imports", (workspace) => {
    const dir = path.join(repoRoot, workspace);
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
      name: string;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const declared = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.devDependencies ?? {}),
    ]);
    const imported = new Set<string>();
    for (const file of sourceFiles(dir)) {
      for (const match of readFileSync(file, "utf8").matchAll(/(?:from|import\()\s*"(@meridian\/[a-z-]+)/g)) {
        if (match[1] !== undefined && match[1] !== manifest.name) imported.add(match[1]);
      }
    }
    expect([...imported].filter((name) => !declared.has(name)).sort()).toEqual([]);
  });
});

test("the tracker takes only types from @meridian/contracts", () => {
  const offending: string[] = [];
  for (const file of sourceFiles(path.join(repoRoot, "packages/tracker/src"))) {
    if (file.endsWith(".test.ts")) continue;
    // Whole statements, so a multi-line `import type { ... } from` counts as one.
    const statements = readFileSync(file, "utf8").matchAll(
      /^(import|export)\b[^;]*?from\s+"@meridian\/contracts[^"]*";/gms,
    );
    for (const [statement] of statements) {
      if (!/^(import|export)\s+type\b/.test(statement))
        offending.push(`${path.relative(repoRoot, file)}: ${statement}`);
    }
  }
  expect(offending).toEqual([]);
});
