/**
 * `npm run bench:lighthouse`: Lighthouse (mobile preset: emulated phone, simulated slow
 * 4G and CPU throttling) against the production server, with Debian's Chromium.
 *
 * Each page is measured LIGHTHOUSE_RUNS times (default 5) and the medians are reported,
 * with what depends on the machine beside them: Lighthouse's `benchmarkIndex` for each
 * run (how fast this machine's CPU was then), the page's main-thread time and total
 * blocking time, and a figure that does not depend on the machine: `reference_ratio`,
 * the page's main-thread time at load divided by that of the same page with every
 * script blocked (the same HTML and shell CSS, no JavaScript), served by the same server
 * in the same run (median of the runs' ratios).
 *
 * Prints each page's scores and the audits that cost points, then as the LAST line one
 * JSON object: `{"<path>": {performance, accessibility, best_practices, seo,
 * benchmark_index, mainthread_ms, tbt_ms, reference_mainthread_ms, reference_ratio}, ...}`
 * with scores 0-100. Targets: performance >= 90 on content pages and >= 85 on the trading
 * pages (median), accessibility and best practices >= 95, SEO 100; reference ratio <= 2 on
 * content pages.
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
  "/",
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
  performance: 90,
  accessibility: 95,
  "best-practices": 95,
  seo: 100,
};
/** The trading pages carry the chart and the order forms: their performance target is lower. */
const TRADING_PAGE = /^\/(?:[a-zA-Z-]+\/)?(?:spot|futures|trade-margin)(?:\/|$)/;
const targetOf = (pagePath: string, id: (typeof CATEGORIES)[number]) =>
  id === "performance" && TRADING_PAGE.test(pagePath) ? 85 : TARGETS[id];

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

type Scores = {
  performance: number;
  accessibility: number;
  best_practices: number;
  seo: number;
  benchmark_index: number;
  mainthread_ms: number;
  tbt_ms: number;
  reference_mainthread_ms: number;
  reference_ratio: number;
};

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

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
    const runOnce = async (blockScripts: boolean) => {
      const run = await lighthouse(url, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: blockScripts ? ["performance"] : [...CATEGORIES],
        ...(blockScripts ? { blockedUrlPatterns: ["*.js", "*.mjs"] } : {}),
      });
      if (!run) throw new Error(`lighthouse returned nothing for ${url}`);
      return run.lhr;
    };
    const perRun: { lhr: Awaited<ReturnType<typeof runOnce>>; mainthread: number; reference: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      // The page and its reference one after the other, so both meet the same machine.
      const lhr = await runOnce(false);
      const ref = await runOnce(true);
      perRun.push({
        lhr,
        mainthread: lhr.audits["mainthread-work-breakdown"]?.numericValue ?? 0,
        reference: ref.audits["mainthread-work-breakdown"]?.numericValue ?? 0,
      });
    }
    // The run whose performance score is the median stands for the page in the details.
    const byScore = [...perRun].sort(
      (a, b) => (a.lhr.categories.performance?.score ?? 0) - (b.lhr.categories.performance?.score ?? 0),
    );
    const typical = byScore[Math.floor(byScore.length / 2)] ?? perRun[0];
    if (typical === undefined) throw new Error("no run");
    const { categories, audits, runtimeError, runWarnings } = typical.lhr;
    const reportDir = process.env.LIGHTHOUSE_REPORT_DIR;
    if (reportDir) {
      mkdirSync(reportDir, { recursive: true });
      const name = pagePath.replace(/^\/+|\/+$/g, "").replace(/[^\w-]+/g, "_") || "root";
      writeFileSync(path.join(reportDir, `${name}.json`), JSON.stringify(typical.lhr));
    }
    // A failed page load scores 0 everywhere: say why instead of printing bare zeros.
    if (runtimeError) log(`${pagePath}: lighthouse error ${runtimeError.code}: ${runtimeError.message}`);
    for (const warning of runWarnings) log(`${pagePath}: warning: ${warning}`);
    const scoreOf = (lhr: (typeof perRun)[number]["lhr"], id: (typeof CATEGORIES)[number]) =>
      Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const score = (id: (typeof CATEGORIES)[number]) => median(perRun.map((r) => scoreOf(r.lhr, id)));
    const round1 = (x: number) => Math.round(x * 10) / 10;
    results[pagePath] = {
      performance: score("performance"),
      accessibility: score("accessibility"),
      best_practices: score("best-practices"),
      seo: score("seo"),
      benchmark_index: Math.round(median(perRun.map((r) => r.lhr.environment.benchmarkIndex))),
      mainthread_ms: Math.round(median(perRun.map((r) => r.mainthread))),
      tbt_ms: Math.round(median(perRun.map((r) => r.lhr.audits["total-blocking-time"]?.numericValue ?? 0))),
      reference_mainthread_ms: Math.round(median(perRun.map((r) => r.reference))),
      reference_ratio: round1(median(perRun.map((r) => (r.reference > 0 ? r.mainthread / r.reference : 0)))),
    };
    const result = results[pagePath];
    log(
      `${pagePath} (median of ${RUNS}): ${CATEGORIES.map((c) => `${c} ${score(c)}${score(c) < targetOf(pagePath, c) ? " (BELOW TARGET)" : ""}`).join(", ")}`,
    );
    log(
      `  performance per run ${perRun.map((r) => scoreOf(r.lhr, "performance")).join(" / ")}; benchmarkIndex ${perRun.map((r) => Math.round(r.lhr.environment.benchmarkIndex)).join(" / ")}`,
    );
    log(
      `  main thread ${result?.mainthread_ms} ms, blocking ${result?.tbt_ms} ms; scripts blocked ${result?.reference_mainthread_ms} ms; ratio ${result?.reference_ratio}`,
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
