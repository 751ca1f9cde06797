/**
 * `npm start`: builds the web app only when its sources changed since the last build
 * (scripts/web-build.ts), then runs the production server.
 *
 * NOTE: a running server serves the build's hashed assets from disk, so a build under it
 * turns its pages' scripts into 404s. Each server started here holds a shared lock on
 * this checkout's serve lock for its whole life (`flock -s`); a second start rebuilds only
 * when it can take that lock exclusively, i.e. when no server of this checkout runs, and
 * otherwise reuses the current build and says so. Two starts at once are ordered by the
 * build lock of web-build.ts: the second waits, then finds the build fresh.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildStaleness, ensureWebBuild, hasFlock, repoRoot } from "./web-build.ts";

/** The lock every server this script starts from one checkout holds shared for its life. */
export function serveLockOf(root: string): string {
  return path.join(
    os.tmpdir(),
    `meridian-serve-${createHash("sha1").update(root).digest("hex").slice(0, 12)}.lock`,
  );
}

/** True while any process holds `lock` (a server started by this script from that checkout). */
export function serverRunning(lock: string): boolean {
  if (!hasFlock()) return false;
  return spawnSync("flock", ["--nonblock", "--exclusive", lock, "true"], { stdio: "ignore" }).status !== 0;
}

function start(): void {
  const serveLock = serveLockOf(repoRoot);
  const flock = hasFlock();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const stale = buildStaleness();
  if (stale !== undefined && serverRunning(serveLock)) {
    log(`web build: ${stale}, but a server of this checkout is running on the current build: reusing it`);
    log("web build: stop that server and start again to rebuild");
  } else {
    try {
      ensureWebBuild({ log });
    } catch (error) {
      log(error instanceof Error ? error.message : String(error));
      process.exit(1);
    }
    if (stale === undefined) log("web build: up to date");
  }

  const server = [
    process.execPath,
    "--max-semi-space-size=32",
    path.join(repoRoot, "apps/server/src/main.ts"),
  ];
  // --no-fork: flock becomes the server, so signals (Ctrl-C, a supervisor's SIGTERM) reach it.
  const noFork = flock && spawnSync("flock", ["--help"], { encoding: "utf8" }).stdout.includes("--no-fork");
  const [command = "", ...args] = flock
    ? ["flock", ...(noFork ? ["--no-fork"] : []), "--shared", serveLock, ...server]
    : server;
  const child = spawn(command, args, {
    cwd: path.join(repoRoot, "apps/server"),
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("exit", (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) start();
