import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PlatformDb } from "../../platform/db/internal.ts";
import { loadMigrations, migrate } from "../../platform/db/migrate.ts";
import { MIGRATIONS_DIR } from "../../platform/db/migrations/index.ts";
import { openSqlite } from "../../platform/db/sqlite.ts";
import { contentTexts } from "../content/index.ts";
import { importAirdrops, parseCsv, parseImport } from "./import.ts";
import { AirdropsService } from "./service.ts";

const good = {
  slug: "example-one",
  name: "Example One",
  ticker: "EXO",
  chain: "Ethereum",
  type: "standard",
  requirements: ["free"],
  estValue: "100",
  seedPrice: "0.5",
  predictedPrice: "1.25",
  startAt: "2026-01-01",
  endAt: "2026-02-01T12:00:00Z",
  description: "An example airdrop.",
  about: '<p onclick="alert(1)">About <script>alert(1)</script>it</p>',
  websiteUrl: "https://example.org",
};

const CSV = `slug,name,ticker,chain,type,requirements,estValue,seedPrice,predictedPrice,startAt,endAt,description,faq
example-two,Example Two,EXT,Solana,bounty,kyc|social_tasks,50,0.1,0.3,2026-03-01,2026-04-01,"Two, with a comma and ""quotes""","[{""question"":""Q?"",""answer"":""A.""}]"
example-three,Example Three,EXH,TON,holder,,10,0,0.2,1767225600000,1769904000000,"Multi
line",
`;

let db: PlatformDb;
beforeEach(async () => {
  db = openSqlite(":memory:");
  await migrate(db, await loadMigrations(MIGRATIONS_DIR));
});
afterEach(async () => {
  await db.close();
});

const count = async () => Number((await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM airdrops"))?.n);

describe("airdrop import", () => {
  it("parses quoted CSV fields, doubled quotes and line breaks", () => {
    expect(parseCsv('a,b\n"x, y","say ""hi"""\r\n"multi\nline",2\n')).toEqual([
      ["a", "b"],
      ["x, y", 'say "hi"'],
      ["multi\nline", "2"],
    ]);
  });

  it("imports a good JSON file, sanitising rich text", async () => {
    const parsed = parseImport(JSON.stringify([good]), "json");
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.rows[0]?.startAt).toBe(Date.UTC(2026, 0, 1));
    await importAirdrops(db, contentTexts, parsed.rows);
    const service = new AirdropsService({ db, texts: contentTexts, now: () => Date.UTC(2026, 0, 15) });
    const detail = await service.detail("example-one", "en");
    expect(detail.airdrop.status).toBe("active");
    expect(detail.airdrop.about).not.toContain("script");
    expect(detail.airdrop.about).not.toContain("onclick");
    expect(detail.airdrop.about).toContain("About");
  });

  it("imports a good CSV file", async () => {
    const parsed = parseImport(CSV, "csv");
    expect(parsed).toMatchObject({ ok: true });
    if (!parsed.ok) return;
    expect(parsed.rows.map((r) => r.slug)).toEqual(["example-two", "example-three"]);
    expect(parsed.rows[0]?.requirements).toEqual(["kyc", "social_tasks"]);
    expect(parsed.rows[0]?.description).toBe('Two, with a comma and "quotes"');
    expect(parsed.rows[0]?.faq).toEqual([{ question: "Q?", answer: "A." }]);
    expect(parsed.rows[1]?.description).toBe("Multi\nline");
    await importAirdrops(db, contentTexts, parsed.rows);
    expect(await count()).toBe(2);
  });

  it("rejects a file with any bad row and reports every bad row", async () => {
    const bad = [
      good,
      { ...good, slug: "Bad Slug", estValue: "-3" },
      { ...good, slug: "example-late", endAt: "2025-01-01" },
      good,
    ];
    const parsed = parseImport(JSON.stringify(bad), "json");
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.map((i) => i.row)).toEqual([2, 3, 4]);
    expect(parsed.issues[0]?.problems.join(" ")).toMatch(/slug/);
    expect(parsed.issues[0]?.problems.join(" ")).toMatch(/estValue/);
    expect(parsed.issues[1]?.problems.join(" ")).toMatch(/endAt/);
    expect(parsed.issues[2]?.problems.join(" ")).toMatch(/twice/);
    expect(await count()).toBe(0);
  });

  it("rejects malformed files", () => {
    expect(parseImport("{nope", "json").ok).toBe(false);
    expect(parseImport("{}", "json").ok).toBe(false);
    expect(parseImport("[]", "json").ok).toBe(false);
    expect(parseImport("slug,name\nonly-two,Cols\n", "csv").ok).toBe(false);
  });
});
