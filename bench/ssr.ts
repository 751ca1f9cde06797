/**
 * `npm run bench:ssr`: server-side rendering throughput and latency of the home page
 * under the production server, and the page's first-load weight.
 *
 * Two rounds, each on a fresh production server: `rendered`, with the anonymous-page
 * micro-cache off (every request renders the page), and `cached`, as in production (repeats
 * of the page within a second are served from the cache), with the count of cache hits and
 * of renders in that round. The `ssr_*` keys are the rendered round's.
 *
 * Prints human-readable lines, then as the last line one JSON object:
 * `{ssr_rps, ssr_p50_ms, ssr_p99_ms, ssr_cpu_ms_per_request, cached_rps, cached_p50_ms,
 * cached_p99_ms, cached_hits, cached_misses, cached_cpu_ms_per_request,
 * first_load_js_gzip_bytes, blocking_css_gzip_bytes}`.
 * Targets: rendered p50 < 10 ms, first-load JS <= 200 KB gzip, blocking CSS <= 40 KB gzip.
 *
 * Env: BENCH_PATH (default "/"), BENCH_CONNECTIONS (10), BENCH_DURATION_S (10),
 * BENCH_CPU_PROF=<dir> (the server writes a .cpuprofile there when it stops).
 * SSR_MICROCACHE_MS sets the cached round's cache time (default 1000).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import autocannon from "autocannon";
import { startServer } from "../scripts/lib/server-process.ts";
import { ensureWebBuild } from "../scripts/web-build.ts";
import { measurePageWeight } from "./lib/page-weight.ts";

const pagePath = process.env.BENCH_PATH ?? "/";
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const duration = Number(process.env.BENCH_DURATION_S ?? 10);
/** What a browser sends for a page: the server compresses the HTML, as it does in production. */
const headers = {
  accept: "text/html",
  "accept-encoding": "gzip, deflate, br, zstd",
  "accept-language": "en-US,en;q=0.9",
};
const targets = { p50Ms: 10, jsGzipBytes: 200 * 1024, cssGzipBytes: 40 * 1024 };

const log = (line: string) => process.stdout.write(`${line}\n`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const verdict = (ok: boolean) => (ok ? "ok" : "OVER TARGET");

/**
 * CPU seconds the server process has used (Linux /proc), or undefined elsewhere. On a
 * shared machine latency follows the load; CPU time per request does not.
 */
function cpuSeconds(pid: number): number | undefined {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return undefined;
  // Fields after the parenthesised command name; utime and stime are the 12th and 13th.
  const text = readFileSync(stat, "utf8");
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim() || 100);
  return (Number(fields[11]) + Number(fields[12])) / ticks;
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  hits: number;
  misses: number;
  cpuMsPerRequest: number | undefined;
}

/**
 * One server, warmed 3 s, then measured: throughput, latency, how many answers the
 * micro-cache served (`x-ssr-cache: hit`) and how many were rendered, and server CPU.
 */
async function round(label: string, cacheMs: string): Promise<Round> {
  const profileDir = process.env.BENCH_CPU_PROF;
  // Request logging stays at the production default: it is part of what production pays.
  const server = await startServer({
    env: { SSR_MICROCACHE_MS: cacheMs },
    ...(profileDir ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] } : {}),
  });
  try {
    const url = `${server.url}${pagePath}`;
    const first = await fetch(url, { headers });
    await first.body?.cancel();
    if (first.status !== 200) throw new Error(`GET ${url} answered ${first.status}`);
    log(
      `${label}: SSR_MICROCACHE_MS=${cacheMs}; warm-up 3 s, ${connections} connections against ${pagePath}`,
    );
    await autocannon({ url, connections, duration: 3, headers });

    let hits = 0;
    let misses = 0;
    const cpuBefore = cpuSeconds(server.pid);
    const result = await autocannon({
      url,
      connections,
      duration,
      requests: [
        {
          method: "GET",
          headers,
          onResponse: (_status, _body, _context, answer) => {
            if (answer?.["x-ssr-cache"] === "hit") hits++;
            else misses++;
          },
        },
      ],
    });
    const cpuAfter = cpuSeconds(server.pid);
    const bad = result.non2xx + result.errors + result.timeouts;
    if (bad > 0) {
      throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
    }
    const rps = Math.round(result.requests.average);
    const { p50, p99 } = result.latency;
    const cpuMsPerRequest =
      cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total > 0
        ? ((cpuAfter - cpuBefore) * 1000) / result.requests.total
        : undefined;
    log(
      `  ${rps} req/s, latency p50 ${p50} ms, p99 ${p99} ms (${result.requests.total} requests: ` +
        `${hits} micro-cache hits, ${misses} rendered)` +
        (cpuMsPerRequest === undefined ? "" : `; server CPU ${cpuMsPerRequest.toFixed(2)} ms per request`),
    );
    return { rps, p50, p99, hits, misses, cpuMsPerRequest };
  } finally {
    await server.stop();
  }
}

ensureWebBuild({ log });
// Two servers, one after the other: as in production (the micro-cache answers repeats of
// an anonymous page for a second), and with the cache off, so every request renders.
const cached = await round("cached", process.env.SSR_MICROCACHE_MS ?? "1000");
const rendered = await round("rendered", "0");
log(`  rendered p50 target < ${targets.p50Ms} ms: ${verdict(rendered.p50 < targets.p50Ms)}`);

const weightServer = await startServer();
try {
  const url = `${weightServer.url}${pagePath}`;
  const weight = await measurePageWeight(url);
  log(`first-load JS: ${weight.js.length} files, ${kb(weight.jsGzipBytes)} gzip`);
  for (const asset of [...weight.js].sort((a, b) => b.gzipBytes - a.gzipBytes)) {
    log(`  ${new URL(asset.url).pathname}  ${kb(asset.rawBytes)} raw, ${kb(asset.gzipBytes)} gzip`);
  }
  log(`  target <= ${kb(targets.jsGzipBytes)}: ${verdict(weight.jsGzipBytes <= targets.jsGzipBytes)}`);
  log(`render-blocking CSS: ${weight.css.length} files, ${kb(weight.cssGzipBytes)} gzip`);
  for (const asset of weight.css) {
    log(`  ${new URL(asset.url).pathname}  ${kb(asset.rawBytes)} raw, ${kb(asset.gzipBytes)} gzip`);
  }
  log(`  target <= ${kb(targets.cssGzipBytes)}: ${verdict(weight.cssGzipBytes <= targets.cssGzipBytes)}`);
  log(`inline <style> in the HTML: ${kb(weight.inlineStyleBytes)} raw`);
  log(`load average now ${loadavg()[0]?.toFixed(1)}`);

  const cpu = (r: Round) => (r.cpuMsPerRequest === undefined ? null : Number(r.cpuMsPerRequest.toFixed(3)));
  log(
    JSON.stringify({
      ssr_rps: rendered.rps,
      ssr_p50_ms: rendered.p50,
      ssr_p99_ms: rendered.p99,
      ssr_cpu_ms_per_request: cpu(rendered),
      cached_rps: cached.rps,
      cached_p50_ms: cached.p50,
      cached_p99_ms: cached.p99,
      cached_hits: cached.hits,
      cached_misses: cached.misses,
      cached_cpu_ms_per_request: cpu(cached),
      first_load_js_gzip_bytes: weight.jsGzipBytes,
      blocking_css_gzip_bytes: weight.cssGzipBytes,
    }),
  );
} finally {
  await weightServer.stop();
}
