/**
 * Size budgets from the client build:
 *   render-blocking CSS (the root's stylesheet links) <= 40 KB gzip,
 *   first-load JS of each page in PAGES below its ceiling: the
 *   entry, the page's route chain (root, layout, page) and their imports, and, unless the
 *   page's routes say `antd: false` (features/shell/antd-settings.ts), what the entry loads
 *   before hydrating and the root preloads (features/shell/antd-preload.ts): antd's
 *   provider, the locale modules and English's antd data, each with everything it imports
 *   statically. The same files
 *   `npm run bench:ssr` finds in the served page, gzipped the same way (level 9).
 *   A page served without hydration (its route's handle says `hydrate: false`, read from
 *   the server build: app/features/shell/islands.ts) loads the islands bundle's entry and
 *   its static imports instead, and nothing else.
 * `npm run check:budgets` (builds first when stale; one of `npm test`'s static checks), or
 * on an existing build `npm run size -w @meridian/web`. Exits 1 when over.
 * `-- --files /spot/:symbol` lists that page's files with their sizes too (`/` always).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const CSS_BUDGET = 40 * 1024;
const KB = 1024;
/**
 * JS per page, gzip: what it loads to become interactive, after the first paint (the
 * trading pages' `x-modulepreload-after-paint`, the islands bundle's deferred script).
 * `ceiling` fails the check (what the page weighs now, 2026-12-05: trading pages 172-176
 * KB, pages without hydration, `/` included, 7.1 KB (the islands bundle), plus
 * room for a few KB: no page grows unnoticed); `target` is issue 33's goal (80 KB on
 * content pages, 140 KB on trading pages), printed beside it until every page reaches it.
 */
const PAGES: ReadonlyArray<{ route: string; label: string; ceiling: number; target: number }> = [
  { route: "routes/home", label: "/", ceiling: 10 * KB, target: 80 * KB },
  { route: "routes/airdrops", label: "/airdrops", ceiling: 8 * KB, target: 80 * KB },
  { route: "routes/airdrops-list", label: "/airdrops/list", ceiling: 8 * KB, target: 80 * KB },
  { route: "routes/airdrops-detail", label: "/airdrops/:slug", ceiling: 8 * KB, target: 80 * KB },
  { route: "routes/airdrops.news.$slug", label: "/airdrops/news/:slug", ceiling: 8 * KB, target: 80 * KB },
  { route: "routes/telegram-apps", label: "/telegram-apps", ceiling: 8 * KB, target: 80 * KB },
  { route: "routes/telegram-apps.$app", label: "/telegram-apps/:app", ceiling: 8 * KB, target: 80 * KB },
  { route: "routes/spot.$symbol", label: "/spot/:symbol", ceiling: 178 * KB, target: 140 * KB },
  { route: "routes/futures.$symbol", label: "/futures/usdt/:symbol", ceiling: 181 * KB, target: 140 * KB },
  { route: "routes/trade-margin", label: "/trade-margin/:symbol", ceiling: 180 * KB, target: 140 * KB },
];
/** Chunks of the antd preload list (vite.config.ts, antdPreload): antd's provider and the locale modules. */
const ANTD_PRELOAD_CHUNKS = /^(antd-config|locale-modules)-[\w-]+\.js$/;

const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../build/client");
const assetsDir = path.join(clientDir, "assets");
const assets = readdirSync(assetsDir);

interface ManifestEntry {
  module: string;
  parentId?: string;
  imports?: string[];
  css?: string[];
}
interface Manifest {
  entry: ManifestEntry;
  routes: Record<string, ManifestEntry>;
}

function gzipSize(url: string): number {
  return gzipSync(readFileSync(path.join(clientDir, url)), { level: 9 }).length;
}

const manifestFile = assets.find((f) => /^manifest-[\w-]+\.js$/.test(f));
if (!manifestFile) throw new Error("no React Router manifest in build/client/assets: run the build first");
const manifestText = readFileSync(path.join(assetsDir, manifestFile), "utf8");
const manifest = JSON.parse(
  manifestText.slice(manifestText.indexOf("=") + 1).replace(/;\s*$/, ""),
) as Manifest;

/** Every route's chain from the root, by id (`root`, `routes/locale-layout`, the page). */
const chainOf = (id: string): string[] => {
  const out: string[] = [];
  for (let r: string | undefined = id; r !== undefined; r = manifest.routes[r]?.parentId) out.unshift(r);
  return out;
};

/**
 * The JavaScript a page loads before it is interactive: the entry, its route chain's modules
 * and their imports, antd's provider and the locale modules (the entry loads them before
 * hydrating; every page renders antd in its shell), English's antd data, and everything
 * those import statically.
 */
function firstLoadJs(routeId: string): Set<string> {
  const js = new Set<string>();
  for (const entry of [manifest.entry, ...chainOf(routeId).map((id) => manifest.routes[id])]) {
    if (!entry) continue;
    js.add(entry.module);
    for (const i of entry.imports ?? []) js.add(i);
  }
  // A page whose route says it renders no antd (the trading pages) neither preloads it nor
  // waits for it before hydrating (root.tsx, entry.client.tsx): its dialogs bring it later.
  if (!usesAntd(routeId)) return withStaticImports(js);
  for (const f of assets) if (ANTD_PRELOAD_CHUNKS.test(f)) js.add(`/assets/${f}`);

  // English's antd data: the locale modules import it (and its own chunks) dynamically.
  for (const file of [...js]) {
    const text = readFileSync(path.join(clientDir, file), "utf8");
    const deps = /m\.f=\[([^\]]*)\]/
      .exec(text)?.[1]
      ?.split(",")
      .map((s) => s.replace(/"/g, ""));
    const call = /import\(["`]\.\/(en_US-[\w-]+\.js)["`]\)[^_]*?__vite__mapDeps\(\[([\d,]*)\]/.exec(text);
    if (!deps || !call) continue;
    for (const index of call[2]?.split(",") ?? []) {
      const dep = deps[Number(index)];
      if (dep) js.add(`/${dep}`);
    }
  }

  withStaticImports(js);
  if (![...js].some((f) => f.includes("/en_US-")))
    throw new Error("no en_US chunk found: the locale modules changed shape");
  return js;
}

/** Adds everything the files import statically (they load with them). */
function withStaticImports(js: Set<string>): Set<string> {
  const STATIC_IMPORT =
    /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?from\s*)?["'`]\.\/([\w.-]+\.js)["'`]/g;
  for (const file of js) {
    const text = readFileSync(path.join(clientDir, file), "utf8");
    for (const match of text.matchAll(STATIC_IMPORT))
      js.add(path.posix.join(path.posix.dirname(file), match[1] ?? ""));
  }
  return js;
}

/** Route modules of the server build, for their `handle` (which pages hydrate, which render antd). */
const serverBuild = (await import(pathToFileURL(path.join(clientDir, "../server/index.js")).href)) as {
  routes: Record<string, { module: { handle?: { hydrate?: boolean; antd?: boolean } } } | undefined>;
};
const hydrates = (routeId: string): boolean =>
  !chainOf(routeId).some((id) => serverBuild.routes[id]?.module.handle?.hydrate === false);
const usesAntd = (routeId: string): boolean =>
  !chainOf(routeId).some((id) => serverBuild.routes[id]?.module.handle?.antd === false);

/** The islands bundle's entry (vite.islands.config.ts; the client build holds a copy) and its static imports. */
function islandsJs(): Set<string> {
  const islandsManifest = JSON.parse(
    readFileSync(path.join(clientDir, "../../dist/islands/.vite/manifest.json"), "utf8"),
  ) as Record<string, { file: string; isEntry?: boolean }>;
  const entry = Object.values(islandsManifest).find((m) => m.isEntry)?.file;
  if (!entry || !assets.includes(path.posix.basename(entry)))
    throw new Error("no islands bundle in build/client/assets: rebuild (npm run build)");
  return withStaticImports(new Set([`/${entry}`]));
}

const css = new Set<string>();
for (const id of chainOf("routes/home")) for (const c of manifest.routes[id]?.css ?? []) css.add(c);

// Stylesheets linked from root.tsx's `links` (imported with ?url, so not in the manifest).
for (const f of assets) if (/^(antd\.generated|app)-[\w-]+\.css$/.test(f)) css.add(`/assets/${f}`);

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const report = (label: string, files: Set<string>, budget: number) => {
  const sizes = [...files].map((f) => [f, gzipSize(f)] as const).sort((a, b) => b[1] - a[1]);
  const total = sizes.reduce((sum, [, n]) => sum + n, 0);
  console.log(`${label}: ${kb(total)} gzip (budget ${kb(budget)})`);
  for (const [f, n] of sizes) console.log(`  ${kb(n).padStart(9)}  ${f}`);
  return total <= budget;
};

const detailed = process.argv.slice(2).filter((_, i, all) => all[i - 1] === "--files");
const cssOk = report("render-blocking CSS", css, CSS_BUDGET);
let jsOk = true;
const summary: string[] = [];
for (const page of PAGES) {
  if (manifest.routes[page.route] === undefined) throw new Error(`no route ${page.route} in the manifest`);
  const islands = !hydrates(page.route);
  const files = islands ? islandsJs() : firstLoadJs(page.route);
  const total = [...files].reduce((sum, f) => sum + gzipSize(f), 0);
  if (page.route === "routes/home" || detailed.includes(page.label))
    report(`first-load JS of ${page.label}`, files, page.ceiling);
  const over = total > page.ceiling;
  if (over) jsOk = false;
  summary.push(
    `${page.label.padEnd(24)} ${kb(total).padStart(9)}  ceiling ${kb(page.ceiling)}, target ${kb(page.target)}${
      islands ? ", islands" : ""
    }${over ? "  OVER" : total <= page.target ? "  (target met)" : ""}`,
  );
}
console.log("first-load JS per page (gzip):");
for (const line of summary) console.log(`  ${line}`);
if (!cssOk || !jsOk) {
  console.error("over budget");
  process.exit(1);
}
