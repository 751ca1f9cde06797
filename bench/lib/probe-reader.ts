/**
 * The load generator's side of bench/lib/server-probe.ts (bench:orders, bench:api): reads
 * the probed server's stdout, hands its `{"probe":...}` lines to `nextProbe`, and watches
 * the load generator's own process (GC pauses, CPU, loop delay) while the load runs.
 */
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

/** For `--import`: the probe the server loads. */
export const probeModule = path.resolve(import.meta.dirname, "server-probe.ts");

/** What the server's event loop went through between two SIGUSR2 (server-probe.ts). */
export interface Probe {
  wall_ms: number;
  main_cpu_ms: number;
  eld_p50_ms: number;
  eld_p99_ms: number;
  eld_max_ms: number;
  gc_count: number;
  gc_ms: number;
  gc_max_ms: number;
  served_count: number;
  served_p50_ms: number;
  served_p99_ms: number;
  served_max_ms: number;
  /** ORDERS_BENCH_DIAG=1 only: the most main-thread CPU one event-loop turn held (`busiestTurn`). */
  busy_turn_max_ms: number | null;
  /** ORDERS_BENCH_DIAG=1 on SQLite only: the WAL syncs, checkpoint passes and restarts, and the slow requests' overlaps with them. */
  wal_sync_count?: number;
  wal_sync_p50_ms?: number;
  wal_sync_p99_ms?: number;
  wal_sync_max_ms?: number;
  wal_sync_slow?: number;
  ckpt_pass?: { count: number; p50: number; max: number };
  ckpt_restart?: { count: number; p50: number; max: number };
  slow_requests?: number;
  slow_in_restart?: number;
  slow_in_slow_sync?: number;
  slow_in_pass?: number;
  slow_in_none?: number;
}

/**
 * Splits the child's stdout into lines: probe lines resolve `nextProbe`, every other line
 * goes to `onLine` (a partial last line is kept until its end comes). `openWindow` sends
 * the SIGUSR2 that starts the probe's window; `nextProbe` sends the one that ends it and
 * resolves with the figures the server prints.
 */
export function readProbes(
  child: ChildProcess,
  onLine: (line: string) => void,
): { openWindow(): void; nextProbe(): Promise<Probe> } {
  let out = "";
  let waiter: ((p: Probe) => void) | null = null;
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    let nl = out.indexOf("\n");
    while (nl >= 0) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      nl = out.indexOf("\n");
      if (line.startsWith('{"probe":')) waiter?.((JSON.parse(line) as { probe: Probe }).probe);
      else onLine(line);
    }
  });
  return {
    openWindow: () => child.kill("SIGUSR2"),
    nextProbe: () =>
      new Promise<Probe>((resolve) => {
        waiter = resolve;
        child.kill("SIGUSR2");
      }),
  };
}

/**
 * This process (the load generator) while the load runs: GC pauses and CPU, and with
 * `loopDelay` its event loop delay and busiest turn (timers of its own, so only when asked).
 */
export function watchClient(loopDelay: boolean) {
  const delay = loopDelay ? monitorEventLoopDelay({ resolution: 1 }) : null;
  const turns = loopDelay ? busiestTurn() : null;
  const gc = { count: 0, maxMs: 0, ms: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gc.count++;
      gc.ms += e.duration;
      gc.maxMs = Math.max(gc.maxMs, e.duration);
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  delay?.enable();
  const cpu0 = process.threadCpuUsage();
  return () => {
    delay?.disable();
    const busyTurnMs = turns?.stop() ?? null;
    observer.disconnect();
    const cpu = process.threadCpuUsage(cpu0);
    return {
      cpuMs: (cpu.user + cpu.system) / 1000,
      eldP99Ms: delay === null ? null : delay.percentile(99) / 1e6,
      eldMaxMs: delay === null ? null : delay.max / 1e6,
      busyTurnMs,
      gcCount: gc.count,
      gcMs: gc.ms,
      gcMaxMs: gc.maxMs,
    };
  };
}

/**
 * The most main-thread CPU spent between two ticks of a 2 ms timer: how long the event
 * loop was held by work of its own (a GC pause, a long callback). Unlike the loop delay it
 * hardly grows when other processes take the cores: a 300 ms delay that holds 20 ms of CPU
 * was the thread waiting for a core, not working. `stop` returns the figure in ms.
 */
export function busiestTurn(): { stop(): number } {
  let lastWall = performance.now();
  let last = process.threadCpuUsage();
  let max = 0;
  const timer = setInterval(() => {
    const cpu = process.threadCpuUsage();
    const wall = performance.now();
    // Turns that ran on time hold at most the timer's own period of work.
    if (wall - lastWall > 4) max = Math.max(max, (cpu.user - last.user + cpu.system - last.system) / 1000);
    lastWall = wall;
    last = cpu;
  }, 2);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return max;
    },
  };
}
