/**
 * `npm run bench:lighthouse`: Lighthouse (mobile preset: emulated phone, simulated slow
 * 4G and CPU throttling) against the production server, with Debian's Chromium.
 *
 * Prints each page's scores and the audits that cost points, then as the LAST line one
 * JSON object: `{"<path>": {performance, accessibility, best_practices, seo}, ...}` with
 * scores 0-100. Targets: performance, accessibility and best practices >= 95, SEO 100.
 *
 * To measure more pages, append paths to PAGES below (the apps directory adds its own),
 * or set LIGHTHOUSE_PATHS="/a,/b" for a one-off run. CHROMIUM_PATH overrides the browser.
 * LIGHTHOUSE_REPORT_DIR=<dir> also writes each page's full report there as JSON
 * (`airdrops_list.json` for /airdrops/list), to read the diagnostics behind a score.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { startServer } from "../scripts/lib/server-process.ts";
import { ensureWebBuild } from "../scripts/web-build.ts";

/** Pages measured by default. One line per page. */
export const PAGES: readonly string[] = [
  "/airdrops",
  "/airdrops/list",
  "/airdrops/notcoin",
  "/telegram-apps",
  "/telegram-apps/notcoin",
  "/spot/BTCUSDT",
  "/futures/usdt/BTCUSDT",
  "/trade-margin",
];

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const TARGETS: Record<(typeof CATEGORIES)[number], number> = {
  performance: 95,
  accessibility: 95,
  "best-practices": 95,
  seo: 100,
};

const log = (line: string) => process.stdout.write(`${line}\n`);
const paths = process.env.LIGHTHOUSE_PATHS
  ? process.env.LIGHTHOUSE_PATHS.split(",").map((p) => p.trim())
  : PAGES;

/** Up to three offenders of a failed audit (element, script or console line), so a run says what to fix. */
function culprits(details: unknown): string[] {
  const items = (details as { items?: unknown[] } | undefined)?.items ?? [];
  return items.slice(0, 3).map((raw) => {
    const item = raw as Record<string, unknown>;
    const node = item.node as { selector?: string; snippet?: string } | undefined;
    const text = node?.selector ?? item.url ?? item.description ?? item.source ?? JSON.stringify(item);
    return String(text).slice(0, 160);
  });
}

type Scores = { performance: number; accessibility: number; best_practices: number; seo: number };

ensureWebBuild({ log });
const server = await startServer();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
const results: Record<string, Scores> = {};
try {
  for (const pagePath of paths) {
    const url = `${server.url}${pagePath}`;
    // Warm the server (first render compiles nothing, but loads modules and caches).
    await (await fetch(url)).body?.cancel();
    const run = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
    });
    if (!run) throw new Error(`lighthouse returned nothing for ${url}`);
    const { categories, audits, runtimeError, runWarnings } = run.lhr;
    const reportDir = process.env.LIGHTHOUSE_REPORT_DIR;
    if (reportDir) {
      mkdirSync(reportDir, { recursive: true });
      const name = pagePath.replace(/^\/+|\/+$/g, "").replace(/[^\w-]+/g, "_") || "root";
      writeFileSync(path.join(reportDir, `${name}.json`), JSON.stringify(run.lhr));
    }
    // A failed page load scores 0 everywhere: say why instead of printing bare zeros.
    if (runtimeError) log(`${pagePath}: lighthouse error ${runtimeError.code}: ${runtimeError.message}`);
    for (const warning of runWarnings) log(`${pagePath}: warning: ${warning}`);
    const score = (id: (typeof CATEGORIES)[number]) => Math.round((categories[id]?.score ?? 0) * 100);
    results[pagePath] = {
      performance: score("performance"),
      accessibility: score("accessibility"),
      best_practices: score("best-practices"),
      seo: score("seo"),
    };
    log(
      `${pagePath}: ${CATEGORIES.map((c) => `${c} ${score(c)}${score(c) < TARGETS[c] ? " (BELOW TARGET)" : ""}`).join(", ")}`,
    );
    for (const metric of [
      "first-contentful-paint",
      "largest-contentful-paint",
      "total-blocking-time",
      "cumulative-layout-shift",
    ]) {
      const audit = audits[metric];
      if (audit) log(`  ${audit.title}: ${audit.displayValue ?? ""}`);
    }
    for (const id of CATEGORIES) {
      for (const ref of categories[id]?.auditRefs ?? []) {
        const audit = audits[ref.id];
        if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 0.9) continue;
        log(`  [${id}] ${audit.title}${audit.displayValue ? `: ${audit.displayValue}` : ""}`);
        for (const item of culprits(audit.details)) log(`      ${item}`);
      }
    }
  }
} finally {
  chrome.kill();
  await server.stop();
}
log(JSON.stringify(results));
