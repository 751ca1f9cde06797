import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { reopenableDbTargets } from "../test/db-targets.ts";
import type { PlatformDb } from "./db/internal.ts";
import { loadMigrations, migrate } from "./db/migrate.ts";
import { MIGRATIONS_DIR } from "./db/migrations/index.ts";
import { SharedSecretError, sharedSecretStore } from "./shared-secrets.ts";

for (const target of reopenableDbTargets("sharedsecrets")) {
  describe(`shared secrets (${target.name})`, () => {
    let opened: Awaited<ReturnType<typeof target.open>>;
    let dbs: PlatformDb[];
    beforeAll(async () => {
      opened = await target.open();
      // Two connections stand for two instances on one database.
      dbs = [opened.db(), opened.db()];
      await migrate(dbs[0] as PlatformDb, await loadMigrations(MIGRATIONS_DIR));
    });
    afterAll(async () => {
      if (target.name === "sqlite") for (const db of dbs) await db.close();
      await opened.cleanup();
    });

    test("instances asking at once all get the one value stored first, sealed in production", async () => {
      const key = crypto.randomBytes(32);
      let made = 0;
      const values = await Promise.all(
        [0, 1, 0, 1, 0, 1].map((i) =>
          sharedSecretStore(dbs[i] as PlatformDb, { production: true, key }).getOrCreate("login-key", () => {
            made++;
            return `value-${made}`;
          }),
        ),
      );
      expect(new Set(values).size).toBe(1);
      expect(values[0]).toMatch(/^value-\d$/);
      const row = await dbs[0]?.get<{ value: string; sealed: number }>(
        "SELECT value, sealed FROM shared_secrets WHERE name = 'login-key'",
      );
      expect(row?.sealed).toBe(1);
      expect(row?.value).not.toContain(String(values[0]));
    });

    test("another SECRETS_KEY, none, or none in production: refused or nothing shared", async () => {
      const key = crypto.randomBytes(32);
      const db = dbs[0] as PlatformDb;
      await sharedSecretStore(db, { production: true, key }).getOrCreate("sealed", () => "s");
      await expect(
        sharedSecretStore(db, { production: true, key: crypto.randomBytes(32) }).getOrCreate(
          "sealed",
          () => "x",
        ),
      ).rejects.toThrow(/another SECRETS_KEY/);
      await expect(
        sharedSecretStore(db, { production: false, key: undefined }).getOrCreate("sealed", () => "x"),
      ).rejects.toBeInstanceOf(SharedSecretError);
      expect(
        await sharedSecretStore(db, { production: true, key: undefined }).getOrCreate("other", () => "x"),
      ).toBeUndefined();
      // outside production without a key: stored as it is, and production refuses to use it
      expect(
        await sharedSecretStore(db, { production: false, key: undefined }).getOrCreate("plain", () => "p"),
      ).toBe("p");
      await expect(
        sharedSecretStore(db, { production: true, key }).getOrCreate("plain", () => "x"),
      ).rejects.toThrow(/unsealed/);
    });
  });
}
