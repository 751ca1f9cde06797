/**
 * The demo seeds as the site runs them (`moduleSeeds`): the content seeder writes the
 * airdrops and apps, the search index and the artwork seeder read them back through the
 * owners' read interfaces (`indexAllAirdrops`, `airdropArtworkSubjects` and the apps').
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqlite } from "../../platform/db/sqlite.ts";
import { buildTestApp, testConfig } from "../../test/support.ts";
import { searchIndexSeed } from "./index.ts";

const db = openSqlite(":memory:");
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({ db, config: testConfig({ SEED_DEMO_DATA: "true" }), modules: [] });
}, 120_000);
afterAll(async () => {
  await app.close();
  db.close();
});

const count = async (sql: string) => Number((await db.get<{ n: number }>(sql))?.n ?? 0);

describe("demo seeds", () => {
  it("draws artwork for every seeded airdrop and app", async () => {
    const airdrops = await count("SELECT COUNT(*) AS n FROM airdrops");
    const apps = await count("SELECT COUNT(*) AS n FROM tg_apps");
    expect(airdrops).toBeGreaterThan(0);
    expect(apps).toBeGreaterThan(0);
    expect(await count("SELECT COUNT(DISTINCT slug) AS n FROM media_links WHERE owner = 'airdrop'")).toBe(
      airdrops,
    );
    expect(await count("SELECT COUNT(DISTINCT slug) AS n FROM media_links WHERE owner = 'app'")).toBe(apps);
  });

  it("the search index seed indexes every stored airdrop and app again", async () => {
    await db.run("DELETE FROM content_search");
    await searchIndexSeed.seed(db, { log: app.log });
    const indexed = (kind: string) =>
      count(`SELECT COUNT(DISTINCT entity_id) AS n FROM content_search WHERE kind = '${kind}'`);
    expect(await indexed("airdrop")).toBe(await count("SELECT COUNT(*) AS n FROM airdrops"));
    expect(await indexed("tg-app")).toBe(await count("SELECT COUNT(*) AS n FROM tg_apps"));
  });
});
