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
import { moduleSources, modulesDir, serverModules } from "./lib/server-modules.ts";
import { BELOW_FEATURES, SHARED_FEATURE_LAYERS } from "./lib/web-layers.ts";
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
  // A feature reaches another only through features/trading-screen, the shell and SEO; what
  // several need lives in app/api, app/ui or app/lib. The web's other rules still hold there.
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
  web("features/assets/f1.ts", "../airdrops/detail-page.tsx", true),
  web("features/api-keys/f1.ts", "../account/page-meta.ts", true),
  web("features/account/security/f1.tsx", "../../api-keys/api-keys-page.tsx", true),
  web("features/tg-apps/admin/f1.tsx", "../../../features/airdrops/admin-page.tsx", true),
  web("features/airdrops/ok.ts", "../seo/seo.ts", false),
  web("features/por/ok.ts", "../../api/margin.ts", false),
  web("features/account/security/ok.tsx", "../page-meta.ts", false),
  web("features/account/security/ok2.tsx", "../../../api/api-call.ts", false),
  web("features/tg-apps/admin/ok.tsx", "../../shell/load-error.tsx", false),
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

/**
 * A module's decorator on the Fastify instance is its own business: other modules get
 * what they need as arguments from the composition root (`modules/index.ts`,
 * `trading-core.ts`), never by looking it up (`hasDecorator("x")`, `app.x`,
 * `request.server.x`). The root's files (`modules/*.ts`) and tests are exempt.
 */
function foreignDecoratorUses(sources: readonly { module: string; file: string; text: string }[]): {
  hasDecorator: string[];
  reads: string[];
} {
  const owner = new Map<string, string>();
  for (const { module, text } of sources)
    for (const m of text.matchAll(/\.decorate\(\s*"([A-Za-z]+)"/g)) owner.set(m[1] ?? "", module);
  const hasDecorator: string[] = [];
  const reads: string[] = [];
  for (const { module, file, text } of sources) {
    for (const m of text.matchAll(/\bhasDecorator\(\s*"([A-Za-z]+)"/g)) {
      const name = m[1] ?? "";
      // An unknown decorator is another module's too (one that may not be built).
      if (owner.get(name) !== module) hasDecorator.push(`${file}: ${name} (${owner.get(name) ?? "?"})`);
    }
    const seen = new Set<string>();
    for (const m of text.matchAll(/\b(?:server|app|api|scope|instance)\.([A-Za-z]+)\b/g)) {
      const name = m[1] ?? "";
      const by = owner.get(name);
      if (by !== undefined && by !== module && !seen.has(name)) {
        seen.add(name);
        reads.push(`${file}: ${name} (${by})`);
      }
    }
  }
  return { hasDecorator, reads };
}

/**
 * Modules that still read another module's decorator, each to be passed as an argument
 * by the root instead (the list only shrinks; it is empty now: the streams log in through
 * the ledger's `sessionAccount`, sub-accounts and the apps get the accounts service).
 */
const KNOWN_DECORATOR_READS: readonly string[] = [];

describe("decorator lookups", () => {
  const sources = serverModuleFiles();

  test("no module looks up another module's decorator with hasDecorator", () => {
    expect(foreignDecoratorUses(sources).hasDecorator).toEqual([]);
  });

  test("reads of another module's decorator are only the listed ones (remove one once it is gone)", () => {
    expect(foreignDecoratorUses(sources).reads.sort()).toEqual([...KNOWN_DECORATOR_READS].sort());
  });

  test("the check finds a lookup and a read of another module's decorator, not of its own", () => {
    const found = foreignDecoratorUses([
      { module: "paper", file: "paper/index.ts", text: 'api.decorate("paper", service);' },
      { module: "margin", file: "margin/index.ts", text: 'api.decorate("margin", service);' },
      {
        module: "margin",
        file: "margin/f1.ts",
        text: 'if (app.hasDecorator("paper")) await request.server.paper.place(x);\nif (api.hasDecorator("margin")) app.margin.x();',
      },
      { module: "vip", file: "vip/f2.ts", text: 'if (!api.hasDecorator("apiKeys")) return [];' },
    ]);
    expect(found).toEqual({
      hasDecorator: ["margin/f1.ts: paper (paper)", "vip/f2.ts: apiKeys (?)"],
      reads: ["margin/f1.ts: paper (paper)"],
    });
  });
});

/** Every non-test source file of every server module, with its module. */
function serverModuleFiles(): { module: string; file: string; text: string }[] {
  return serverModules.flatMap((module) =>
    moduleSources(path.join(modulesDir, module)).map((file) => ({
      module,
      file: path.relative(modulesDir, file).replaceAll("\\", "/"),
      text: readFileSync(file, "utf8"),
    })),
  );
}

const webApp = path.join(repoRoot, "apps/web/app");

/**
 * Where one web feature (`app/features/<x>`) may import another from, and the layers below
 * every feature: scripts/lib/web-layers.ts (the same lists draw docs/architecture.md's web
 * diagram, which scripts/architecture.test.ts checks).
 */

/** Relative import specifiers of a source: static, re-exports, dynamic, side effects. */
function relativeImports(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.[^"']*)["']/gm)].map((m) =>
    (m[1] ?? "").replace(/\?.*$/, ""),
  );
}

/**
 * Imports of one feature by another outside the shared layers, as `importer -> target`
 * (the target relative to `features/`), for `files` given relative to `app/`.
 */
function featureCrossings(files: readonly { file: string; text: string }[]): string[] {
  const found = new Set<string>();
  for (const { file, text } of files) {
    const [top, feature] = file.split("/");
    for (const spec of relativeImports(text)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (top === "features") {
        if (!target.startsWith("features/")) continue;
        const rest = target.slice("features/".length);
        if (rest.split("/")[0] === feature) continue;
        if (SHARED_FEATURE_LAYERS.includes(rest.split("/")[0] ?? "")) continue;
        found.add(`${feature} -> ${rest}`);
      } else if (BELOW_FEATURES.includes(top ?? "") && target.startsWith("features/")) {
        found.add(`${top} -> ${target.slice("features/".length)}`);
      }
    }
  }
  return [...found].sort();
}

/** Every source file of app/features and the layers below them, relative to app/. */
function webSources(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const dir of ["features", ...BELOW_FEATURES])
    for (const full of sourceFiles(path.join(webApp, dir)))
      out.push({ file: path.relative(webApp, full).replaceAll("\\", "/"), text: readFileSync(full, "utf8") });
  return out;
}

describe("web feature boundaries", () => {
  test("a feature imports another only through trading-screen, the shell and SEO; the layers below import none", () => {
    expect(featureCrossings(webSources())).toEqual([]);
  });

  test("the check refuses a crossing and lets the shared layers through", () => {
    const fixtures = [
      { file: "features/margin/f1.ts", text: 'import { x } from "../trade/order-panel.tsx";' },
      { file: "features/account/security/f2.tsx", text: 'export { y } from "../../api-keys/list.tsx";' },
      { file: "features/futures/f3.ts", text: 'const m = await import("../margin/api.ts");' },
      { file: "features/assets/f4.ts", text: 'import "../../features/airdrops/page.css";' },
      { file: "features/margin/f5.ts", text: 'import css from "../assets/assets.css?url";' },
      { file: "ui/f6.tsx", text: 'import { z } from "../features/shell/load-error.tsx";' },
      { file: "api/f7.ts", text: 'import { gate } from "../features/trading-screen/account-gate.tsx";' },
      { file: "features/api-keys/f8.tsx", text: 'import { accountLinks } from "../account/page-meta.ts";' },
      {
        file: "features/futures/ok.ts",
        text: [
          'import { a } from "../trading-screen/order-form.tsx";',
          'import { b } from "../../ui/data-table.tsx";',
          'import { c } from "../shell/load-error.tsx";',
          'import { d } from "../../api/api-call.ts";',
          'import { e } from "./api.ts";',
          'import { f } from "../../lib/client-id.ts";',
          'import { g } from "@meridian/contracts";',
        ].join("\n"),
      },
      { file: "features/account/security/ok.tsx", text: 'import { h } from "../styles.ts";' },
    ];
    expect(featureCrossings(fixtures)).toEqual([
      "account -> api-keys/list.tsx",
      "api -> trading-screen/account-gate.tsx",
      "api-keys -> account/page-meta.ts",
      "assets -> airdrops/page.css",
      "futures -> margin/api.ts",
      "margin -> assets/assets.css",
      "margin -> trade/order-panel.tsx",
      "ui -> shell/load-error.tsx",
    ]);
  });
});
