/**
 * Size budgets for the first paint of the homepage, from the client build:
 *   render-blocking CSS (the root's stylesheet links) <= 40 KB gzip,
 *   first-load JS of `/` (entry, root, layout, home and the English antd locale the
 *   entry loads before hydrating) <= 200 KB gzip.
 * Run after `npm run build`: `npm run size -w @meridian/web`. Exits 1 when over.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const CSS_BUDGET = 40 * 1024;
const JS_BUDGET = 200 * 1024;
const HOME_ROUTES = ["root", "routes/locale-layout", "routes/home"];

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
  return gzipSync(readFileSync(path.join(clientDir, url))).length;
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

// The client entry awaits the page locale's antd data before hydrating: count English's.
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
