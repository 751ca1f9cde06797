/**
 * Size budgets for the first paint of the homepage, from the client build:
 *   render-blocking CSS (the root's stylesheet links) <= 40 KB gzip,
 *   first-load JS of `/` <= 200 KB gzip: the entry, the root, layout and home route
 *   modules, and, as `/` renders antd, what the entry loads before hydrating and the root
 *   preloads (features/shell/antd-preload.ts): antd's provider, the locale modules and
 *   English's antd data, each with everything it imports statically. The same files
 *   `npm run bench:ssr` finds in the served page, gzipped the same way (level 9).
 * `npm run check:budgets` (builds first when stale; one of `npm test`'s static checks), or
 * on an existing build `npm run size -w @meridian/web`. Exits 1 when over.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const CSS_BUDGET = 40 * 1024;
const JS_BUDGET = 200 * 1024;
const HOME_ROUTES = ["root", "routes/locale-layout", "routes/home"];
/** Chunks of the antd preload list (vite.config.ts, antdPreload): antd's provider and the locale modules. */
const ANTD_PRELOAD_CHUNKS = /^(antd-config|locale-modules)-[\w-]+\.js$/;

const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../build/client");
const assetsDir = path.join(clientDir, "assets");
const assets = readdirSync(assetsDir);

interface ManifestEntry {
  module: string;
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

const js = new Set<string>();
const css = new Set<string>();
for (const entry of [manifest.entry, ...HOME_ROUTES.map((id) => manifest.routes[id])]) {
  if (!entry) continue;
  js.add(entry.module);
  for (const i of entry.imports ?? []) js.add(i);
  for (const c of entry.css ?? []) css.add(c);
}
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

// Everything those import statically loads with them.
const STATIC_IMPORT = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?from\s*)?["'`]\.\/([\w.-]+\.js)["'`]/g;
for (const file of js) {
  const text = readFileSync(path.join(clientDir, file), "utf8");
  for (const match of text.matchAll(STATIC_IMPORT))
    js.add(path.posix.join(path.posix.dirname(file), match[1] ?? ""));
}
if (![...js].some((f) => f.includes("/en_US-")))
  throw new Error("no en_US chunk found: the locale modules changed shape");

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

const cssOk = report("render-blocking CSS", css, CSS_BUDGET);
const jsOk = report("first-load JS of /", js, JS_BUDGET);
if (!cssOk || !jsOk) {
  console.error("over budget");
  process.exit(1);
}
