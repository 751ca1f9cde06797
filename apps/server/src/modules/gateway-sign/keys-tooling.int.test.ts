import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LoginEncryptError, verifyServerKey } from "@meridian/client";
import { Code, DEV_ISSUER_PUBLIC_JWK, parseIssuerPublicJwk } from "@meridian/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, securityApp } from "../../test/security-agent.ts";
import { generateIssuerKeys, loadServerKeys } from "./keys.ts";

/**
 * `npm run keys:issuer` and `npm run keys:server` as an operator runs them (real child
 * processes), their output checked with the browser client's verifier, and the server's
 * start-up check of the configured issuer.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../..");

function run(script: string, args: string[]) {
  const env = { ...process.env };
  delete env.INIT_CWD;
  const r = spawnSync(process.execPath, [path.join(repoRoot, "scripts", script), ...args], {
    cwd: repoRoot,
    env,
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** KEY=value lines (value unquoted), comments skipped. */
function envLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line);
    if (!m?.[1] || m[2] === undefined) continue;
    const raw = m[2];
    out[m[1]] = /^(["']).*\1$/.test(raw) ? raw.slice(1, -1) : raw;
  }
  return out;
}

let dir: string;
let issuerFile: string;
let issuerOut: ReturnType<typeof run>;
let serverOut: ReturnType<typeof run>;
let serverEnv: Record<string, string>;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-keys-"));
  issuerFile = path.join(dir, "issuer.jwk");
  issuerOut = run("keys-issuer.ts", ["--out", issuerFile]);
  serverOut = run("keys-server.ts", ["--issuer", issuerFile]);
  serverEnv = envLines(serverOut.stdout);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("keys:issuer", () => {
  it("writes the private half with mode 0600 and prints only the public half", () => {
    expect(issuerOut.status).toBe(0);
    expect(fs.statSync(issuerFile).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(issuerFile, "utf8")) as JsonWebKey;
    expect(stored).toMatchObject({ kty: "EC", crv: "P-256" });
    expect(typeof stored.d).toBe("string");
    const printed = issuerOut.stdout + issuerOut.stderr;
    expect(printed).not.toContain(stored.d);
    const publicJwk = parseIssuerPublicJwk(envLines(issuerOut.stdout).VITE_ISSUER_PUBLIC_JWK);
    expect(publicJwk).toEqual({ kty: "EC", crv: "P-256", x: stored.x, y: stored.y });
  });

  it("refuses a path inside the repository, an existing file and a missing --out", () => {
    const inside = run("keys-issuer.ts", ["--out", path.join(repoRoot, "issuer-test.jwk")]);
    expect(inside.status).not.toBe(0);
    expect(inside.stderr).toContain("inside the repository");
    expect(fs.existsSync(path.join(repoRoot, "issuer-test.jwk"))).toBe(false);
    const again = run("keys-issuer.ts", ["--out", issuerFile]);
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain("exists");
    expect(run("keys-issuer.ts", []).status).toBe(2);
  });
});

describe("keys:server", () => {
  it("prints env lines whose key the client verifies against the issuer, and no issuer secret", async () => {
    expect(serverOut.status).toBe(0);
    const stored = JSON.parse(fs.readFileSync(issuerFile, "utf8")) as JsonWebKey;
    expect(serverOut.stdout).not.toContain(stored.d);
    expect(Object.keys(serverEnv).sort()).toEqual([
      "GATEWAY_SERVER_KEY_SIGN",
      "GATEWAY_SERVER_PRIVATE_KEY",
      "VITE_ISSUER_PUBLIC_JWK",
    ]);
    const keys = loadServerKeys({ NODE_ENV: "production", ...serverEnv }, () => {
      throw new Error("no warning expected");
    });
    const config = {
      serverPublicKey: keys.publicKeyB64,
      serverPublicKeySign: keys.publicKeySign,
      encryptAlgorithm: "v2-rsa-oaep256-a256gcm" as const,
    };
    const issuer = parseIssuerPublicJwk(serverEnv.VITE_ISSUER_PUBLIC_JWK);
    const verified = await verifyServerKey(config, issuer);
    expect(verified.keyId).toBe(keys.keyId);
    // A client built with another issuer (here the development one) refuses it.
    await expect(verifyServerKey(config, DEV_ISSUER_PUBLIC_JWK)).rejects.toBeInstanceOf(LoginEncryptError);
  });

  it("writes the env lines to a 0600 file with --out and refuses a file that is not an issuer key", () => {
    const envFile = path.join(dir, "server.env");
    const r = run("keys-server.ts", ["--issuer", issuerFile, "--out", envFile]);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain("PRIVATE KEY");
    expect(fs.statSync(envFile).mode & 0o777).toBe(0o600);
    expect(envLines(fs.readFileSync(envFile, "utf8")).GATEWAY_SERVER_KEY_SIGN).toBeTruthy();
    const notKey = path.join(dir, "public.jwk");
    fs.writeFileSync(notKey, serverEnv.VITE_ISSUER_PUBLIC_JWK ?? "");
    const bad = run("keys-server.ts", ["--issuer", notKey]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain("not an issuer private key");
  });
});

describe("the server's issuer check", () => {
  const other = () => JSON.stringify(generateIssuerKeys().publicJwk);

  it("refuses in production to start with a key another issuer signed", () => {
    expect(() =>
      loadServerKeys({ ...serverEnv, NODE_ENV: "production", VITE_ISSUER_PUBLIC_JWK: other() }),
    ).toThrow(/refusing to start/);
    // Unset issuer = the development one, which did not sign it either.
    const { VITE_ISSUER_PUBLIC_JWK: _, ...noIssuer } = serverEnv;
    expect(() => loadServerKeys({ ...noIssuer, NODE_ENV: "production" })).toThrow(/refusing to start/);
    // Outside production it warns and carries on.
    const warnings: string[] = [];
    loadServerKeys({ ...noIssuer, NODE_ENV: "development" }, (m) => warnings.push(m));
    expect(warnings.join()).toContain("development issuer");
  });

  it("refuses in production a real issuer without a server key, and a malformed or private issuer key", () => {
    expect(() => loadServerKeys({ NODE_ENV: "production", VITE_ISSUER_PUBLIC_JWK: other() })).toThrow(
      /keys:server/,
    );
    expect(() => loadServerKeys({ NODE_ENV: "production", VITE_ISSUER_PUBLIC_JWK: "{nope" })).toThrow(
      /not JSON/,
    );
    const stored = fs.readFileSync(issuerFile, "utf8");
    let message = "";
    try {
      loadServerKeys({ ...serverEnv, NODE_ENV: "production", VITE_ISSUER_PUBLIC_JWK: stored });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain("private key");
    expect(message).not.toContain((JSON.parse(stored) as JsonWebKey).d);
  });

  it("the demo fallback (no keys, development issuer) still starts in production, with a warning", () => {
    const warnings: string[] = [];
    const keys = loadServerKeys({ NODE_ENV: "production" }, (m) => warnings.push(m));
    expect(keys.publicKeyB64).toBeTruthy();
    expect(warnings).toHaveLength(1);
  });
});

describe("login against a tooling-made server key", () => {
  it("logs in with the deployment issuer; a client built with another issuer reports loginEncryptFailed", async () => {
    const server = await securityApp({
      serverKeys: loadServerKeys({ NODE_ENV: "production", ...serverEnv }),
    });
    try {
      const issuer = parseIssuerPublicJwk(serverEnv.VITE_ISSUER_PUBLIC_JWK);
      const email = `k${crypto.randomInt(1e9)}@example.com`;
      await new Agent(server, issuer).registerEmail(email, "password-123");
      const good = await new Agent(server, issuer).login(email, "password-123");
      expect(good.code).toBe(Code.OK);
      expect(server.reports).toEqual([]);

      const foreign = new Agent(server, generateIssuerKeys().publicJwk);
      await expect(foreign.login(email, "password-123")).rejects.toThrow();
      expect(server.reports.map((r) => r.event)).toContain("loginEncryptFailed");
      expect(foreign.security.state).toBe("failed");
    } finally {
      await server.app.close();
    }
  });
});
