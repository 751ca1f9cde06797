/**
 * Vitest globalSetup for the browser suite: one production build, made only when stale;
 * then, for this run only, what makes each test server's start cheaper (each file starts
 * its own, about 4.3 CPU seconds each before this):
 *
 * - a seeded template database (apps/server/src/test/seed-template.ts) that server-process.ts
 *   copies into a fresh DATA_DIR instead of seeding the demo content again (~1.8 s CPU);
 * - a Node compile cache (NODE_COMPILE_CACHE) shared by the servers and the test workers,
 *   so the server's TypeScript is stripped and compiled once, not per start (~0.6 s CPU).
 *
 * Both live in a temporary directory removed at the end; the workers and servers started
 * after this inherit the environment set here.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { nodeBinary, SEED_TEMPLATE_ENV } from "./lib/server-process.ts";
import { ensureWebBuild, repoRoot } from "./web-build.ts";

export default function setup(): () => void {
  ensureWebBuild();
  const dir = mkdtempSync(path.join(os.tmpdir(), "meridian-e2e-run-"));
  const made = spawnSync(
    nodeBinary(),
    [path.join(repoRoot, "apps/server/src/test/seed-template.ts"), path.join(dir, "template")],
    { cwd: repoRoot, encoding: "utf8", env: { ...process.env, TZ: "UTC" } },
  );
  if (made.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`seed template failed (exit ${made.status ?? made.signal}):\n${made.stderr}`);
  }
  process.env[SEED_TEMPLATE_ENV] = made.stdout.trim();
  process.env.NODE_COMPILE_CACHE ??= path.join(dir, "compile-cache");
  return () => rmSync(dir, { recursive: true, force: true });
}
