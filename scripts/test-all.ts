/**
 * `npm test`: every suite, in order, with one verdict.
 *
 * 0. the static checks of `npm run check` (typecheck, lint, translations), one tally each,
 *    and, after the web build (made when stale), the size budgets of its first load;
 * 1. unit + integration (Vitest) against SQLite;
 * 2. the `*.int.test.ts` files again against PostgreSQL and Redis (required when CI=true);
 * 3. the browser suite (vitest.e2e.config.ts) on the web build, which is made first
 *    (when stale) since some server tests render real pages too.
 *
 * Each run reports to the terminal and to a JSON file; the last line printed is
 * `N passed, N failed[, N skipped]` summed over every suite. A suite that crashes or
 * cannot start counts as one failure, never as zero tests.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { ensureWebBuild, repoRoot } from "./web-build.ts";

// The caller may point the integration run elsewhere; these are what CI provides.
const postgresUrl = process.env.TEST_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const isCi = process.env.CI === "true";
/** Wall-clock cap per Vitest run, so a hung suite fails instead of stalling CI. */
const suiteTimeoutMs = Number(process.env.TEST_SUITE_TIMEOUT_MS ?? 35 * 60_000);

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

interface SuiteResult extends Tally {
  name: string;
  note?: string;
}

const results: SuiteResult[] = [];
/** Process groups of running suites, killed if this runner is interrupted. */
const running = new Set<number>();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    for (const pid of running) process.kill(-pid, "SIGKILL");
    process.exit(130);
  });
}
const reportDir = mkdtempSync(path.join(os.tmpdir(), "meridian-test-"));
/**
 * Node's compile cache for every process the suites start (Vitest's workers, the servers
 * tests spawn): each isolated test file is a fresh worker that compiled Vitest and the
 * server's TypeScript again; with the cache that is done once per run (server files:
 * 24.6 -> 20.2 CPU s; a server start: ~0.6 s less).
 */
const compileCache = path.join(reportDir, "compile-cache");

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** The subset of Vitest's JSON report this script reads. */
interface JsonReport {
  numPassedTests?: number;
  numFailedTests?: number;
  numPendingTests?: number;
  numTodoTests?: number;
  testResults?: {
    name?: string;
    status?: string;
    message?: string;
    assertionResults?: { status?: string }[];
  }[];
}

function tallyReport(report: JsonReport): Tally & { brokenFiles: string[] } {
  const brokenFiles: string[] = [];
  for (const file of report.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === "failed").length;
    // A file that fails to import or whose hooks throw has no failed test to show for it.
    if (file.status === "failed" && failedTests === 0) {
      const reason =
        (file.message ?? "").split("\n")[0] || "a suite hook (beforeAll/afterAll) failed; see above";
      brokenFiles.push(`${path.relative(repoRoot, file.name ?? "?")}: ${reason}`);
    }
  }
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + brokenFiles.length,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    brokenFiles,
  };
}

async function runVitest(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const outputFile = path.join(reportDir, `${name.replace(/\W+/g, "-")}.json`);
  const vitest = path.join(repoRoot, "node_modules/vitest/vitest.mjs");
  const fullArgs = [
    vitest,
    "run",
    ...args,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${outputFile}`,
  ];
  say(`\n=== ${name}: vitest ${["run", ...args].join(" ")}`);
  const started = Date.now();
  const child = spawn(process.execPath, fullArgs, {
    cwd: repoRoot,
    env: {
      ...env,
      TZ: "UTC",
      NODE_COMPILE_CACHE: env.NODE_COMPILE_CACHE ?? compileCache,
      ...(process.stdout.isTTY ? {} : { NO_COLOR: "1" }),
    },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  if (child.pid !== undefined) running.add(child.pid);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    // The whole group: Vitest's workers and any server or browser a test started.
    if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
  }, suiteTimeoutMs);
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>(
    (resolve) => {
      child.once("error", (error) => resolve({ code: null, signal: null, error }));
      child.once("exit", (code, signal) => resolve({ code, signal }));
    },
  );
  clearTimeout(timer);
  if (child.pid !== undefined) running.delete(child.pid);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);

  let report: JsonReport | undefined;
  if (existsSync(outputFile)) {
    try {
      report = JSON.parse(readFileSync(outputFile, "utf8")) as JsonReport;
    } catch {
      report = undefined;
    }
  }
  const tally = report ? tallyReport(report) : { passed: 0, failed: 0, skipped: 0, brokenFiles: [] };
  const notes = tally.brokenFiles.map((file) => `file failed outside a test: ${file}`);
  if (timedOut) notes.push(`timed out after ${suiteTimeoutMs / 1000} s`);
  if (exit.error) notes.push(`could not start: ${exit.error.message}`);
  if (!report) notes.push("no JSON report written (the run crashed before reporting)");
  // Vitest exits non-zero on unhandled errors too; those are failures even when every test passed.
  if ((exit.code !== 0 || !report) && tally.failed === 0) {
    tally.failed = 1;
    notes.push(`vitest exited with ${exit.code ?? exit.signal ?? "an error"} without a failed test to show`);
  }
  results.push({
    name,
    passed: tally.passed,
    failed: tally.failed,
    skipped: tally.skipped,
    note: notes.join("; "),
  });
  say(
    `=== ${name}: ${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped in ${seconds} s`,
  );
  for (const note of notes) say(`    ${note}`);
}

function fail(name: string, note: string): void {
  results.push({ name, passed: 0, failed: 1, skipped: 0, note });
  say(`=== ${name}: FAILED: ${note}`);
}

/** Opens a TCP connection to the URL's host, writes `probe` if given, and resolves with the first bytes answered. */
function tcpProbe(url: string, defaultPort: number, probe?: string): Promise<string | undefined> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, ""), port: Number(port || defaultPort) });
    const done = (value: string | undefined) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(2_000, () => done(undefined));
    socket.once("error", () => done(undefined));
    socket.once("connect", () => {
      if (probe === undefined) done("");
      else socket.write(probe);
    });
    socket.once("data", (data) => done(data.toString("utf8")));
  });
}

async function postgresReachable(): Promise<boolean> {
  return (await tcpProbe(postgresUrl, 5432)) !== undefined;
}

/** PING answers +PONG, or -NOAUTH when a password is needed (the URL carries it): either way it is up. */
async function redisReachable(): Promise<boolean> {
  const answer = await tcpProbe(redisUrl, 6379, "PING\r\n");
  return answer !== undefined && (answer.startsWith("+PONG") || answer.startsWith("-NOAUTH"));
}

/** host:port of a URL, without credentials, for messages. */
function hostOf(url: string): string {
  return new URL(url).host;
}

function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.TEST_DATABASE_URL;
  delete env.TEST_REDIS_URL;
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  return env;
}

/** A static check (typecheck, lint, translations, size budgets): one pass or one fail in the tally. */
function runCheck(name: string, script: string): void {
  say(`\n=== ${name} (npm run ${script})`);
  const started = Date.now();
  const result = spawnSync("npm", ["run", "--silent", script], {
    cwd: repoRoot,
    env: {
      ...cleanEnv(),
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status === 0) {
    results.push({ name, passed: 1, failed: 0, skipped: 0, note: "" });
    say(`=== ${name}: passed in ${seconds} s`);
  } else {
    fail(name, `npm run ${script} exited ${result.status ?? result.signal}`);
  }
}

async function main(): Promise<void> {
  // The gate `npm run check` names, so CI enforces it too: each counts as one check.
  runCheck("typecheck", "typecheck");
  runCheck("lint", "lint");
  runCheck("translations", "i18n:check");

  // Built before the Vitest suites: server tests that render real pages need it too.
  let built = false;
  try {
    say("\n=== web build (when stale)");
    ensureWebBuild({ log: say });
    built = true;
  } catch (error) {
    fail("web build", error instanceof Error ? error.message : String(error));
  }
  // The first-load budgets are read from that build (apps/web/scripts/check-budgets.ts).
  if (built) runCheck("size budgets", "check:budgets");
  else fail("size budgets", "not run: the web build failed (see above)");

  await runVitest("unit + integration (SQLite)", ["--passWithNoTests"], cleanEnv());

  const [hasPostgres, hasRedis] = await Promise.all([postgresReachable(), redisReachable()]);
  const missing = [
    hasPostgres ? "" : `PostgreSQL (${hostOf(postgresUrl)})`,
    hasRedis ? "" : `Redis (${hostOf(redisUrl)})`,
  ].filter(Boolean);
  if (missing.length > 0 && isCi) {
    fail("integration (PostgreSQL + Redis)", `CI=true but not reachable: ${missing.join(", ")}`);
  } else if (!hasPostgres && !hasRedis) {
    say(`\n=== integration (PostgreSQL + Redis): skipped, not reachable: ${missing.join(", ")}`);
  } else {
    if (missing.length > 0) say(`\n(not reachable, left out: ${missing.join(", ")})`);
    const env = cleanEnv();
    if (hasPostgres) env.TEST_DATABASE_URL = postgresUrl;
    // The run above put every file on SQLite: here the suites' SQLite targets would repeat it.
    if (hasPostgres) env.TEST_DB_TARGETS = "postgres";
    if (hasRedis) env.TEST_REDIS_URL = redisUrl;
    // The cluster suites start three servers each and time failovers: they run after the
    // rest, one file at a time, so two clusters never share the two cores.
    const cluster = "**/cluster.int.test.ts";
    await runVitest(
      "integration (PostgreSQL + Redis)",
      ["--passWithNoTests", ".int.test.", "--exclude", cluster],
      env,
    );
    await runVitest(
      "integration: clusters (PostgreSQL + Redis)",
      ["--passWithNoTests", "cluster.int.test", "--no-file-parallelism"],
      env,
    );
  }

  if (built) await runVitest("browser (e2e)", ["-c", "vitest.e2e.config.ts"], cleanEnv());
  else fail("browser (e2e)", "not run: the web build failed (see above)");
}

try {
  await main();
} catch (error) {
  fail("test runner", error instanceof Error ? (error.stack ?? error.message) : String(error));
}
rmSync(reportDir, { recursive: true, force: true });

const total = results.reduce(
  (sum, r) => ({
    passed: sum.passed + r.passed,
    failed: sum.failed + r.failed,
    skipped: sum.skipped + r.skipped,
  }),
  {
    passed: 0,
    failed: 0,
    skipped: 0,
  },
);
say("\n=== summary");
for (const r of results) say(`  ${r.name}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`);
say(`${total.passed} passed, ${total.failed} failed${total.skipped > 0 ? `, ${total.skipped} skipped` : ""}`);
process.exitCode = total.failed > 0 ? 1 : 0;
