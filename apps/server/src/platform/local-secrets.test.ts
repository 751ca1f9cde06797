import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { ensureAccountsSecret } from "./local-secrets.ts";

describe("ensureAccountsSecret", () => {
  test("production without a secret: one is generated once, kept private and reused", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "secret-"));
    const first: NodeJS.ProcessEnv = { NODE_ENV: "production" };
    const warnings: string[] = [];
    ensureAccountsSecret(dir, first, (m) => warnings.push(m));
    expect(first.ACCOUNTS_SECRET).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(statSync(path.join(dir, "accounts-secret")).mode & 0o777).toBe(0o600);
    const second: NodeJS.ProcessEnv = { NODE_ENV: "production" };
    ensureAccountsSecret(dir, second, (m) => warnings.push(m));
    expect(second.ACCOUNTS_SECRET).toBe(first.ACCOUNTS_SECRET);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).not.toContain(String(first.ACCOUNTS_SECRET));
    expect(readFileSync(path.join(dir, "accounts-secret"), "utf8").trim()).toBe(first.ACCOUNTS_SECRET);
  });

  test("a configured secret, or development, leaves everything alone", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "secret-"));
    const set: NodeJS.ProcessEnv = { NODE_ENV: "production", ACCOUNTS_SECRET: "x".repeat(44) };
    ensureAccountsSecret(dir, set);
    expect(set.ACCOUNTS_SECRET).toBe("x".repeat(44));
    const dev: NodeJS.ProcessEnv = { NODE_ENV: "development" };
    ensureAccountsSecret(dir, dev);
    expect(dev.ACCOUNTS_SECRET).toBeUndefined();
  });
});
