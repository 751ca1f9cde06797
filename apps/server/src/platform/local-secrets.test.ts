import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { ensureLocalSecrets, readLocalSecrets } from "./local-secrets.ts";

describe("ensureLocalSecrets", () => {
  test("production without secrets: they are generated once, kept private and reused", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "secret-"));
    const first: NodeJS.ProcessEnv = { NODE_ENV: "production" };
    const warnings: string[] = [];
    ensureLocalSecrets(dir, first, (m) => warnings.push(m));
    expect(first.ACCOUNTS_SECRET).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(first.SECRETS_KEY).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(first.SECRETS_KEY).not.toBe(first.ACCOUNTS_SECRET);
    for (const name of ["accounts-secret", "secrets-key"])
      expect(statSync(path.join(dir, name)).mode & 0o777).toBe(0o600);
    const second: NodeJS.ProcessEnv = { NODE_ENV: "production" };
    ensureLocalSecrets(dir, second, (m) => warnings.push(m));
    expect(second.ACCOUNTS_SECRET).toBe(first.ACCOUNTS_SECRET);
    expect(second.SECRETS_KEY).toBe(first.SECRETS_KEY);
    expect(warnings).toHaveLength(2);
    expect(warnings.join("\n")).not.toContain(String(first.ACCOUNTS_SECRET));
    expect(warnings.join("\n")).not.toContain(String(first.SECRETS_KEY));
    expect(readFileSync(path.join(dir, "accounts-secret"), "utf8").trim()).toBe(first.ACCOUNTS_SECRET);
  });

  test("on PostgreSQL no accounts secret file is made (the instances share one in the database)", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "secret-"));
    const env: NodeJS.ProcessEnv = { NODE_ENV: "production", DATABASE_URL: "postgres://db/x" };
    ensureLocalSecrets(dir, env, () => {});
    expect(env.ACCOUNTS_SECRET).toBeUndefined();
    expect(env.SECRETS_KEY).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    // a file an earlier version made is still read: what was sealed under it stays readable
    const sqliteEnv: NodeJS.ProcessEnv = { NODE_ENV: "production" };
    ensureLocalSecrets(dir, sqliteEnv, () => {});
    const again: NodeJS.ProcessEnv = { NODE_ENV: "production", DATABASE_URL: "postgres://db/x" };
    ensureLocalSecrets(dir, again, () => {});
    expect(again.ACCOUNTS_SECRET).toBe(sqliteEnv.ACCOUNTS_SECRET);
  });

  test("configured secrets, or development, leave everything alone", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "secret-"));
    const set: NodeJS.ProcessEnv = {
      NODE_ENV: "production",
      ACCOUNTS_SECRET: "x".repeat(44),
      SECRETS_KEY: "y".repeat(44),
    };
    ensureLocalSecrets(dir, set);
    expect(set.ACCOUNTS_SECRET).toBe("x".repeat(44));
    expect(set.SECRETS_KEY).toBe("y".repeat(44));
    const dev: NodeJS.ProcessEnv = { NODE_ENV: "development" };
    ensureLocalSecrets(dir, dev);
    expect(dev.ACCOUNTS_SECRET).toBeUndefined();
    expect(dev.SECRETS_KEY).toBeUndefined();
  });
});

describe("readLocalSecrets", () => {
  test("a tool beside a production server reads its files whatever its NODE_ENV, and makes none", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "secret-"));
    const none: NodeJS.ProcessEnv = { NODE_ENV: "development" };
    readLocalSecrets(dir, none);
    expect(none.SECRETS_KEY).toBeUndefined();
    expect(() => statSync(path.join(dir, "secrets-key"))).toThrow();
    const server: NodeJS.ProcessEnv = { NODE_ENV: "production" };
    ensureLocalSecrets(dir, server, () => undefined);
    const tool: NodeJS.ProcessEnv = { NODE_ENV: "development", ACCOUNTS_SECRET: "from-env" };
    readLocalSecrets(dir, tool);
    expect(tool.SECRETS_KEY).toBe(server.SECRETS_KEY);
    expect(tool.ACCOUNTS_SECRET).toBe("from-env");
  });
});
