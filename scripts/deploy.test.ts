/**
 * The deployment files in deploy/ stay valid: HAProxy accepts deploy/haproxy.cfg (with a
 * throw-away certificate in place of /etc/haproxy/certs/), and the systemd unit starts the
 * same server entry point with the same Node flags as `npm start`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { haproxyBinary } from "./lib/cluster.ts";

const root = path.resolve(import.meta.dirname, "..");
const haproxy = haproxyBinary();
if (process.env.CI === "true" && haproxy === undefined)
  throw new Error("haproxy is not installed (CI must have it: .ci/run installs it)");
const dir = mkdtempSync(path.join(os.tmpdir(), "meridian-deploy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("deploy/", () => {
  it.runIf(haproxy !== undefined)("haproxy.cfg is accepted by HAProxy", () => {
    const certs = path.join(dir, "certs");
    const made = spawnSync(
      "sh",
      [
        "-c",
        `mkdir -p "${certs}" && openssl req -x509 -newkey rsa:2048 -nodes -keyout "${dir}/k.pem" -out "${dir}/c.pem" -days 1 -subj /CN=localhost && cat "${dir}/c.pem" "${dir}/k.pem" > "${certs}/site.pem"`,
      ],
      { encoding: "utf8" },
    );
    expect(made.status, made.stderr).toBe(0);
    const config = readFileSync(path.join(root, "deploy/haproxy.cfg"), "utf8")
      .replace("crt /etc/haproxy/certs/", `crt ${certs}/`)
      // No syslog socket in a test sandbox.
      .replace(/^\s*log \/dev\/log.*$/m, "");
    const file = path.join(dir, "haproxy.cfg");
    writeFileSync(file, config);
    const check = spawnSync(haproxy as string, ["-c", "-f", file], { encoding: "utf8" });
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
  });

  it("the systemd unit runs what `npm start` runs, restarted on every exit", () => {
    const unit = readFileSync(path.join(root, "deploy/meridian@.service"), "utf8");
    const server = JSON.parse(readFileSync(path.join(root, "apps/server/package.json"), "utf8")) as {
      scripts: { start: string };
    };
    // "NODE_ENV=production node <flags> src/main.ts" -> "<flags> src/main.ts"
    const startArgs = server.scripts.start.replace(/^NODE_ENV=production node /, "");
    expect(unit).toMatch(
      new RegExp(`^ExecStart=\\S+/node ${startArgs.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m"),
    );
    expect(unit).toMatch(/^WorkingDirectory=\S+\/apps\/server$/m);
    expect(unit).toMatch(/^Restart=always$/m);
    expect(unit).toMatch(/NODE_ENV=production/);
  });

  it("the environment example names only variables the server reads", () => {
    const example = readFileSync(path.join(root, "deploy/meridian.env.example"), "utf8");
    const operations = readFileSync(path.join(root, "docs/operations.md"), "utf8");
    const names = [...example.matchAll(/^#?\s?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1] as string);
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) expect(operations, name).toContain(`\`${name}\``);
  });
});
