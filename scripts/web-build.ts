/**
 * Builds the web app (`npm run build`) only when its production build is missing or
 * older than any of its inputs. Shared by `npm test`, the e2e globalSetup and the
 * benchmarks, so a test run never serves a stale bundle.
 *
 * CLI: `node scripts/web-build.ts [--force]`.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const webDir = path.join(repoRoot, "apps/web");
const buildMarker = path.join(webDir, "build/server/index.js");

/** What the client, server, islands and embed bundles are made from: the app, its config and every package it bundles. */
const inputs = [
  path.join(webDir, "app"),
  path.join(webDir, "embed"),
  path.join(webDir, "vite.embed.config.ts"),
  path.join(webDir, "vite.islands.config.ts"),
  path.join(webDir, "public"),
  path.join(webDir, "scripts"),
  path.join(webDir, "vite.config.ts"),
  path.join(webDir, "react-router.config.ts"),
  path.join(webDir, "package.json"),
  path.join(repoRoot, "packages"),
  path.join(repoRoot, "package-lock.json"),
];

const skippedDirs = new Set(["node_modules", "build", "dist", ".react-router", "test", "coverage"]);

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.isDirectory() && skippedDirs.has(entry.name)) continue;
    if (/\.(test|int\.test)\.tsx?$/.test(entry.name)) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** Why a build is needed, or undefined when the current build is fresh. */
export function buildStaleness(): string | undefined {
  if (!existsSync(buildMarker) || !existsSync(path.join(webDir, "build/client"))) return "no build yet";
  if (!existsSync(path.join(webDir, "build/embed/shell.js"))) return "no embed build yet";
  const builtAt = statSync(buildMarker).mtimeMs;
  for (const input of inputs) {
    if (newestMtime(input) > builtAt) return `${path.relative(repoRoot, input)} changed since the last build`;
  }
  return undefined;
}

/** True when the `flock` tool (util-linux) is there to order builds and starts. */
export function hasFlock(): boolean {
  return spawnSync("flock", ["--version"], { stdio: "ignore" }).status === 0;
}

/** `npm run build`, with this Node (24) first on PATH so npm scripts run under it. */
function runBuild(): void {
  const env = {
    ...process.env,
    // Under Vitest NODE_ENV is "test": a build inheriting it would ship development React.
    NODE_ENV: "production",
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
  };
  const result = spawnSync("npm", ["run", "build"], {
    cwd: repoRoot,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status ?? result.signal})`);
}

/**
 * Builds when stale. Several engineers and runners share one work tree, so the check and
 * the build happen under a per-checkout file lock: a second caller waits, then finds the
 * build fresh.
 */
export function ensureWebBuild(options: { force?: boolean; log?: (line: string) => void } = {}): void {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (!options.force && buildStaleness() === undefined) return;
  if (process.env.MERIDIAN_BUILD_LOCKED !== "1" && hasFlock()) {
    const digest = createHash("sha1").update(repoRoot).digest("hex").slice(0, 12);
    const lock = path.join(os.tmpdir(), `meridian-web-build-${digest}.lock`);
    const args = [
      lock,
      process.execPath,
      fileURLToPath(import.meta.url),
      ...(options.force ? ["--force"] : []),
    ];
    const result = spawnSync("flock", args, {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, MERIDIAN_BUILD_LOCKED: "1" },
    });
    if (result.status !== 0) throw new Error(`web build failed (exit ${result.status ?? result.signal})`);
    return;
  }
  const reason = options.force ? "forced" : buildStaleness();
  if (reason === undefined) return;
  log(`web build: ${reason}; running npm run build`);
  runBuild();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    ensureWebBuild({ force: process.argv.includes("--force") });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
