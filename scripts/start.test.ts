import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { serveLockOf, serverRunning } from "./start.ts";
import { hasFlock } from "./web-build.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "meridian-start-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasFlock())("a second npm start sees the running server", () => {
  it("names one lock per checkout", () => {
    expect(serveLockOf("/a/checkout")).toBe(serveLockOf("/a/checkout"));
    expect(serveLockOf("/a/checkout")).not.toBe(serveLockOf("/another/checkout"));
  });

  it("while a server holds the serve lock, and no longer once it exits", async () => {
    const lock = path.join(dir, "serve.lock");
    expect(serverRunning(lock)).toBe(false);
    // What start.ts runs, with a process that stays up in place of the server.
    const server = spawn("flock", ["--no-fork", "--shared", lock, "sleep", "120"], { stdio: "ignore" });
    children.push(server);
    await expect.poll(() => serverRunning(lock), { timeout: 10_000 }).toBe(true);
    // Two servers of one checkout share it.
    const second = spawn("flock", ["--nonblock", "--shared", lock, "true"], { stdio: "ignore" });
    const code = await new Promise<number | null>((resolve) => second.on("exit", resolve));
    expect(code).toBe(0);
    server.kill("SIGTERM");
    await expect.poll(() => serverRunning(lock), { timeout: 10_000 }).toBe(false);
  });
});
