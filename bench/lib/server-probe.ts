/**
 * Loaded into a benchmarked server with `--import` (bench:orders, bench:api): measures what the
 * server's event loop went through while the load ran, so a latency tail can be told
 * apart from the work behind it. The first SIGUSR2 starts a window, the second prints
 * one line on stdout: `{"probe":{...}}` with
 *
 * - event-loop delay p50/p99/max (perf_hooks.monitorEventLoopDelay, 1 ms resolution):
 *   how long a request that became ready had to wait for the loop;
 * - main-thread CPU in the window (process.threadCpuUsage): unlike latency it hardly
 *   moves when other work shares the machine;
 * - GC pauses (count, total, longest) seen by a PerformanceObserver;
 * - with ORDERS_BENCH_DIAG=1, the busiest event-loop turn (the most main-thread CPU held
 *   between two ticks of a 2 ms timer: real work, where a long loop delay on a shared
 *   machine may be only the wait for a core), and the server's own time per request,
 *   from its headers being parsed to the last byte of the answer handed to the socket
 *   (`http.server.request.start` / `response.finish` diagnostics channels): what the
 *   client measures minus the network, the kernel and the client's own delays;
 * - with ORDERS_BENCH_DIAG=1 on SQLite, the WAL syncs and the checkpoint thread's passes
 *   and restarts (their channels in apps/server/src/platform/db), and which of them each
 *   slow request (served in more than SLOW_MS) overlapped: `slow_*` counts.
 */
import { subscribe } from "node:diagnostics_channel";
import { createHistogram, monitorEventLoopDelay, PerformanceObserver, performance } from "node:perf_hooks";
import { busiestTurn } from "./probe-reader.ts";

const delay = monitorEventLoopDelay({ resolution: 1 });
const gc = { count: 0, ms: 0, maxMs: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gc.count++;
    gc.ms += e.duration;
    gc.maxMs = Math.max(gc.maxMs, e.duration);
  }
}).observe({ entryTypes: ["gc"] });

const served = createHistogram();
// Keep-alive connections carry one request at a time: the start time is kept per socket.
const startedAt = new Map<object, number>();
// NOTE: subscribing makes Node's HTTP server publish two messages per request, and it
// costs about 5 % more CPU per order in bench:orders: only when asked (ORDERS_BENCH_DIAG=1).
if (process.env.ORDERS_BENCH_DIAG === "1") {
  subscribe("http.server.request.start", (message) => {
    startedAt.set((message as { socket: object }).socket, performance.now());
  });
  subscribe("http.server.response.finish", (message) => {
    const t = startedAt.get((message as { socket: object }).socket);
    if (t === undefined || start === null) return;
    const now = performance.now();
    served.record(Math.max(1, Math.round((now - t) * 1000)));
    if (now - t > SLOW_MS) slowRequests.push({ start: t, end: now });
  });
}

/** A served time above this counts as slow and is matched against the disk work it overlapped. */
const SLOW_MS = 15;
/** A WAL sync longer than this counts as slow. */
const SLOW_SYNC_MS = 5;
interface Span {
  start: number;
  end: number;
}
const disk = {
  syncs: createHistogram(),
  slowSyncs: [] as Span[],
  passes: [] as Span[],
  restarts: [] as Span[],
};
const slowRequests: Span[] = [];
if (process.env.ORDERS_BENCH_DIAG === "1") {
  subscribe("meridian:db:wal-sync", (message) => {
    const span = message as Span;
    if (start === null) return;
    disk.syncs.record(Math.max(1, Math.round((span.end - span.start) * 1000)));
    if (span.end - span.start > SLOW_SYNC_MS) disk.slowSyncs.push(span);
  });
  subscribe("meridian:db:checkpoint", (message) => {
    const span = message as Span & { kind: "pass" | "restart" };
    if (start === null) return;
    (span.kind === "pass" ? disk.passes : disk.restarts).push(span);
  });
}

/** Spans overlapping `span`. */
const overlaps = (spans: Span[], span: Span) => spans.some((s) => s.start < span.end && s.end > span.start);
const spanMs = (spans: Span[]) => {
  const ms = spans.map((s) => s.end - s.start).sort((a, b) => a - b);
  return { count: ms.length, p50: round(ms[Math.floor(ms.length / 2)] ?? 0), max: round(ms.at(-1) ?? 0) };
};

let start: { cpu: NodeJS.CpuUsage; wall: number; turns: { stop(): number } | null } | null = null;
const round = (n: number) => Math.round(n * 100) / 100;

process.on("SIGUSR2", () => {
  if (start === null) {
    delay.reset();
    delay.enable();
    gc.count = 0;
    gc.ms = 0;
    gc.maxMs = 0;
    served.reset();
    disk.syncs.reset();
    disk.slowSyncs.length = 0;
    disk.passes.length = 0;
    disk.restarts.length = 0;
    slowRequests.length = 0;
    start = {
      cpu: process.threadCpuUsage(),
      wall: performance.now(),
      turns: process.env.ORDERS_BENCH_DIAG === "1" ? busiestTurn() : null,
    };
    return;
  }
  delay.disable();
  const cpu = process.threadCpuUsage(start.cpu);
  const probe = {
    wall_ms: round(performance.now() - start.wall),
    main_cpu_ms: round((cpu.user + cpu.system) / 1000),
    eld_p50_ms: round(delay.percentile(50) / 1e6),
    eld_p99_ms: round(delay.percentile(99) / 1e6),
    eld_max_ms: round(delay.max / 1e6),
    gc_count: gc.count,
    gc_ms: round(gc.ms),
    gc_max_ms: round(gc.maxMs),
    served_count: served.count,
    served_p50_ms: round(served.percentile(50) / 1000),
    served_p99_ms: round(served.percentile(99) / 1000),
    served_max_ms: round(served.max / 1000),
    busy_turn_max_ms: start.turns === null ? null : round(start.turns.stop()),
    ...(disk.syncs.count > 0 ? diskReport() : {}),
  };
  start = null;
  process.stdout.write(`${JSON.stringify({ probe })}\n`);
});

/** The disk work of the window and what the slow requests overlapped. */
function diskReport() {
  const slow = slowRequests.map((r) => ({
    restart: overlaps(disk.restarts, r),
    sync: overlaps(disk.slowSyncs, r),
    pass: overlaps(disk.passes, r),
  }));
  return {
    wal_sync_count: disk.syncs.count,
    wal_sync_p50_ms: round(disk.syncs.percentile(50) / 1000),
    wal_sync_p99_ms: round(disk.syncs.percentile(99) / 1000),
    wal_sync_max_ms: round(disk.syncs.max / 1000),
    wal_sync_slow: disk.slowSyncs.length,
    ckpt_pass: spanMs(disk.passes),
    ckpt_restart: spanMs(disk.restarts),
    slow_requests: slow.length,
    slow_in_restart: slow.filter((s) => s.restart).length,
    slow_in_slow_sync: slow.filter((s) => s.sync).length,
    slow_in_pass: slow.filter((s) => s.pass).length,
    slow_in_none: slow.filter((s) => !s.restart && !s.sync && !s.pass).length,
  };
}
