/**
 * The key store's "managed by": a user manages its own keys and its sub-accounts' (their
 * ids come from the accounts module's read, not from SQL on `users`); anyone else gets 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMigrations, migrate } from "../../platform/db/migrate.ts";
import { MIGRATIONS_DIR } from "../../platform/db/migrations/index.ts";
import { openSqlite } from "../../platform/db/sqlite.ts";
import { ApiKeyStore, loadKeyStoreConfig } from "./keys.ts";

const db = openSqlite(":memory:");
const subs = new Map<string, string[]>([["master", ["sub-1", "sub-2"]]]);
const store = new ApiKeyStore(db, loadKeyStoreConfig({ NODE_ENV: "test" }), async (id) => subs.get(id) ?? []);
const body = { label: "bot", permissions: ["read" as const], ips: [], passphrase: "Passphrase123" };

beforeAll(async () => {
  await migrate(db, await loadMigrations(MIGRATIONS_DIR));
});
afterAll(() => db.close());

describe("API keys a user manages", () => {
  it("a master lists, reads, edits and deletes a key its sub made; a stranger cannot", async () => {
    const own = await store.create("master", body);
    const subKey = await store.create("sub-1", { ...body, label: "sub bot" });
    await store.create("someone", { ...body, label: "other" });

    expect((await store.listByUser("master")).map((k) => k.apiKey).sort()).toEqual(
      [own.apiKey, subKey.apiKey].sort(),
    );
    expect((await store.listByUser("sub-1")).map((k) => k.apiKey)).toEqual([subKey.apiKey]);
    expect((await store.get("master", subKey.apiKey)).label).toBe("sub bot");
    expect((await store.update("master", subKey.apiKey, { label: "renamed" })).label).toBe("renamed");

    await expect(store.get("someone", subKey.apiKey)).rejects.toMatchObject({ status: 404 });
    await expect(store.update("sub-2", subKey.apiKey, { label: "x" })).rejects.toMatchObject({ status: 404 });
    await expect(store.delete("someone", own.apiKey)).rejects.toMatchObject({ status: 404 });

    await store.delete("master", subKey.apiKey);
    expect((await store.listByUser("master")).map((k) => k.apiKey)).toEqual([own.apiKey]);
  });
});
