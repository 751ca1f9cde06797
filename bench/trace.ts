/**
 * `npm run bench:trace`: the main thread's long tasks of a page's first load, the way a
 * slow phone sees them: Debian's Chromium at 412x823 (Lighthouse's mobile screen) with
 * the CPU throttled by CDP (`Emulation.setCPUThrottlingRate`, 4 unless TRACE_CPU says).
 *
 * For each page and run it prints the tasks of 50 ms or more in the first TRACE_MS
 * (8,000) with what took most of each (a script's evaluation or call by file, layout,
 * paint, parse, GC), then the blocking time (the sum of each long task's time over
 * 50 ms, Lighthouse's TBT formula on real throttling, not its simulation). The last
 * line is one JSON object `{"<path>": [blocking ms per run], ...}`.
 *
 * TRACE_PATHS="/a,/b" picks the pages (default: the three trading pages), TRACE_RUNS
 * the runs per page (3), TRACE_DIR=<dir> also keeps each run's Chrome trace (open it in
 * DevTools' Performance panel). Compare builds by alternating runs: on a shared machine
 * one build's figures spread widely.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "../scripts/lib/server-process.ts";
import { ensureWebBuild } from "../scripts/web-build.ts";

const log = (line: string) => process.stdout.write(`${line}\n`);
const paths = (process.env.TRACE_PATHS ?? "/spot/BTCUSDT,/futures/usdt/BTCUSDT,/trade-margin")
  .split(",")
  .map((p) => p.trim());
const runs = Number(process.env.TRACE_RUNS ?? 3);
const cpu = Number(process.env.TRACE_CPU ?? 4);
const windowMs = Number(process.env.TRACE_MS ?? 8_000);
const traceDir = process.env.TRACE_DIR;

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { url?: string; functionName?: string; frame?: string; documentLoaderURL?: string } };
}

/** What took most of each top-level task: the task's direct work grouped by kind and file. */
function summarize(events: TraceEvent[], main: TraceEvent) {
  const navStart = main.ts;
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X");
  const tasks = onMain.filter((e) => e.name === "RunTask" && (e.dur ?? 0) >= 50_000 && e.ts >= navStart);
  const label = (e: TraceEvent) => {
    const url = e.args?.data?.url ?? "";
    const file = url ? url.split("/").pop()?.replace(/\?.*$/, "") : "";
    switch (e.name) {
      case "EvaluateScript":
      case "v8.compileModule":
      case "v8.evaluateModule":
        return `eval ${file}`;
      case "FunctionCall":
        return `call ${file}${e.args?.data?.functionName ? ` ${e.args.data.functionName}` : ""}`;
      case "TimerFire":
      case "FireAnimationFrame":
      case "FireIdleCallback":
      case "EventDispatch":
      case "Layout":
      case "UpdateLayoutTree":
      case "Paint":
      case "ParseHTML":
      case "MinorGC":
      case "MajorGC":
      case "V8.GC_SCAVENGER":
        return e.name;
      default:
        return null;
    }
  };
  return tasks
    .filter((t) => t.ts - navStart < windowMs * 1000)
    .map((t) => {
      const end = t.ts + (t.dur ?? 0);
      const inside = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= end);
      const parts = new Map<string, number>();
      for (const e of inside) {
        const name = label(e);
        if (!name || name.startsWith("TimerFire") || name.startsWith("Fire")) continue;
        parts.set(name, Math.max(parts.get(name) ?? 0, (e.dur ?? 0) / 1000));
      }
      const top = [...parts.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([n, ms]) => `${n} ${ms.toFixed(0)}`)
        .join("; ");
      return { at: (t.ts - navStart) / 1000, ms: (t.dur ?? 0) / 1000, top };
    });
}

ensureWebBuild({ log });
const server = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
const results: Record<string, number[]> = {};
try {
  for (const pagePath of paths) {
    const url = `${server.url}${pagePath}`;
    await (await fetch(url)).body?.cancel();
    for (let run = 1; run <= runs; run++) {
      const context = await browser.newContext({
        viewport: { width: 412, height: 823 },
        deviceScaleFactor: 1.75,
        isMobile: true,
        hasTouch: true,
      });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpu });
      const events: TraceEvent[] = [];
      cdp.on("Tracing.dataCollected", (msg) => {
        events.push(...(msg.value as unknown as TraceEvent[]));
      });
      await cdp.send("Tracing.start", {
        categories:
          "devtools.timeline,v8.execute,disabled-by-default-devtools.timeline,blink.user_timing,loading",
        transferMode: "ReportEvents",
      });
      await page.goto(url, { waitUntil: "load" });
      await page.waitForTimeout(windowMs);
      const done = new Promise<void>((resolve) => cdp.once("Tracing.tracingComplete", () => resolve()));
      await cdp.send("Tracing.end");
      await done;
      // The page's own navigation (the renderer also starts one for about:blank; the
      // loader URL may differ from the one asked for, so any of the server's).
      const nav = events.find(
        (e) => e.name === "navigationStart" && e.args?.data?.documentLoaderURL?.startsWith(server.url),
      );
      if (!nav) throw new Error(`no navigationStart for ${url} in the trace`);
      const navStart = nav.ts;
      const fcp = events.find((e) => e.name === "firstContentfulPaint" && e.pid === nav.pid)?.ts;
      const tasks = summarize(events, nav);
      const blocking = tasks
        .filter((t) => fcp === undefined || t.at * 1000 + navStart >= fcp)
        .reduce((sum, t) => sum + Math.max(0, t.ms - 50), 0);
      results[pagePath] = [...(results[pagePath] ?? []), Math.round(blocking)];
      log(
        `${pagePath} run ${run}: blocking ${blocking.toFixed(0)} ms, FCP ${fcp ? ((fcp - navStart) / 1000).toFixed(0) : "?"} ms, ${tasks.length} long tasks`,
      );
      for (const t of tasks) log(`  at ${t.at.toFixed(0)} ms: ${t.ms.toFixed(0)} ms (${t.top})`);
      if (traceDir) {
        mkdirSync(traceDir, { recursive: true });
        const name = `${pagePath.replace(/^\/+|\/+$/g, "").replace(/[^\w-]+/g, "_") || "root"}-${run}.json`;
        writeFileSync(path.join(traceDir, name), JSON.stringify({ traceEvents: events }));
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
log(JSON.stringify(results));
