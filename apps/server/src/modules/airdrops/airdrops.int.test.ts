import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { airdropInputSchema, airdropNewsInputSchema } from "@meridian/contracts";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlatformDb } from "../../platform/db/internal.ts";
import { loadMigrations, migrate } from "../../platform/db/migrate.ts";
import { MIGRATIONS_DIR } from "../../platform/db/migrations/index.ts";
import { openPostgres } from "../../platform/db/postgres.ts";
import { openSqlite } from "../../platform/db/sqlite.ts";
import { contentTexts, loadContent } from "../content/index.ts";
import { seedAirdropLibrary } from "./index.ts";
import { AirdropsService } from "./service.ts";

const NOW = Date.UTC(2026, 0, 15, 12);
const CONTENT = loadContent();
const SEED_AIRDROPS = CONTENT.airdrops;
// A written Japanese Notcoin page, as a translator's ja.json would add it.
const notcoin = SEED_AIRDROPS.find((a) => a.slug === "notcoin");
if (notcoin)
  notcoin.texts.ja = {
    ...notcoin.texts.en,
    description: "Notcoin は Telegram 内のタップして稼ぐゲームとして始まりました。",
    about: "<p>Notcoin は The Open Network 上の コミュニティ トークン です。</p>",
  };
const seedAll = (tx: Parameters<typeof seedAirdropLibrary>[0], now: number) =>
  seedAirdropLibrary(
    tx,
    contentTexts,
    {
      airdrops: CONTENT.airdrops,
      news: CONTENT.news,
      homeFaq: Object.fromEntries(
        Object.entries(CONTENT.pages["airdrops-home"]).map(([lang, text]) => [lang, text?.faq ?? []]),
      ),
    },
    now,
  );

interface Target {
  open(): Promise<PlatformDb>;
  cleanup(): Promise<void>;
}

function sqlite(): Target {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "meridian-airdrops-"));
  return {
    open: async () => openSqlite(path.join(dir, "test.db")),
    cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

function postgres(url: string): Target {
  const schema = `airdrops_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  return {
    open: async () => {
      await admin.connect();
      await admin.query(`CREATE SCHEMA "${schema}"`);
      return openPostgres({ connectionString: url, schema, max: 4 });
    },
    cleanup: async () => {
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      await admin.end();
    },
  };
}

const targets: { label: string; make: () => Target }[] = [{ label: "sqlite", make: sqlite }];
const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) targets.push({ label: "postgres", make: () => postgres(pgUrl) });

const query = (over: Record<string, unknown> = {}) => ({ page: 1, pageSize: 50, ...over });

describe.each(targets)("airdrop library SQL ($label)", ({ make }) => {
  let target: Target;
  let db: PlatformDb;
  let service: AirdropsService;

  beforeAll(async () => {
    target = make();
    db = await target.open();
    await migrate(db, await loadMigrations(MIGRATIONS_DIR));
    await db.transaction((tx) => seedAll(tx, NOW));
    // Seeding twice changes nothing (ON CONFLICT DO NOTHING).
    await db.transaction((tx) => seedAll(tx, NOW));
    service = new AirdropsService({ db, texts: contentTexts, now: () => NOW });
  });
  afterAll(async () => {
    await db?.close();
    await target?.cleanup();
  });

  it("seeds every airdrop once, with all three statuses present", async () => {
    const all = await service.list(query());
    expect(all.total).toBe(SEED_AIRDROPS.length);
    const home = await service.home("en");
    expect(home.counts.active).toBeGreaterThan(0);
    expect(home.counts.upcoming).toBeGreaterThan(0);
    expect(home.counts.closed).toBeGreaterThan(0);
    expect(home.counts.active + home.counts.upcoming + home.counts.closed).toBe(SEED_AIRDROPS.length);
    expect(home.popular).toHaveLength(8);
    expect(home.popular[0]?.symbol).toBe("BTC");
    expect(home.faq).toHaveLength(8);
  });

  it("filters by status with the same rule as airdropStatus", async () => {
    for (const status of ["upcoming", "active", "closed"] as const) {
      const page = await service.list(query({ status }));
      expect(page.items.length).toBeGreaterThan(0);
      expect(page.items.every((a) => a.status === status)).toBe(true);
    }
  });

  it("filters by chain, type, requirement and search", async () => {
    const ton = await service.list(query({ chain: "ton" }));
    expect(ton.items.map((a) => a.slug)).toContain("notcoin");
    expect(ton.items.every((a) => a.chain === "TON")).toBe(true);
    const holder = await service.list(query({ type: "holder" }));
    expect(holder.items.every((a) => a.type === "holder")).toBe(true);
    const kyc = await service.list(query({ requirement: "kyc" }));
    expect(kyc.items.length).toBeGreaterThan(0);
    expect(kyc.items.every((a) => a.requirements.includes("kyc"))).toBe(true);
    const wildcard = await service.list(query({ q: "%" }));
    expect(wildcard.total).toBe(0);
  });

  it("searches names, tickers, tags and bodies by word prefix, best match first", async () => {
    const byTicker = await service.list(query({ q: "arb" }));
    expect(byTicker.items[0]?.slug).toBe("arbitrum");
    const byName = await service.list(query({ q: "PENGU" }));
    expect(byName.items[0]?.slug).toBe("pudgy-penguins");
    // A word of the body only: Notcoin's about text speaks of vouchers.
    expect((await service.list(query({ q: "voucher" }))).items.map((a) => a.slug)).toContain("notcoin");
    // Every word must match; combined with the other filters.
    expect((await service.list(query({ q: "tap telegram" }))).items.map((a) => a.slug)).toContain("notcoin");
    expect((await service.list(query({ q: "notcoin", chain: "solana" }))).total).toBe(0);
    expect((await service.list(query({ q: "zzzqqq" }))).items).toEqual([]);
    // In the page's language: the Japanese body is found from the Japanese page only.
    const ja = await service.list(query({ q: "コミュニティ", locale: "ja" }));
    expect(ja.items.map((a) => a.slug)).toContain("notcoin");
    expect((await service.list(query({ q: "コミュニティ", locale: "de" }))).total).toBe(0);
  });

  it("sorts by decimal value numerically, both directions", async () => {
    const asc = await service.list(query({ sort: "estValue", order: "asc" }));
    const values = asc.items.map((a) => Number(a.estValue));
    expect(values).toEqual([...values].sort((x, y) => x - y));
    const desc = await service.list(query({ sort: "estValue", order: "desc" }));
    expect(desc.items[0]?.slug).toBe("hyperliquid");
  });

  it("sorts by name and keeps missing listing dates last", async () => {
    const byName = await service.list(query({ sort: "name", order: "asc" }));
    const names = byName.items.map((a) => a.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    for (const order of ["asc", "desc"] as const) {
      const byListing = await service.list(query({ sort: "listingAt", order }));
      const firstNull = byListing.items.findIndex((a) => a.listingAt === null);
      expect(firstNull).toBeGreaterThan(0);
      expect(byListing.items.slice(firstNull).every((a) => a.listingAt === null)).toBe(true);
    }
  });

  it("paginates without overlap and reports the total", async () => {
    const first = await service.list({ page: 1, pageSize: 10, sort: "startAt", order: "asc" });
    const second = await service.list({ page: 2, pageSize: 10, sort: "startAt", order: "asc" });
    expect(first.items).toHaveLength(10);
    expect(second.items).toHaveLength(10);
    expect(first.total).toBe(SEED_AIRDROPS.length);
    const overlap = first.items.filter((a) => second.items.some((b) => b.slug === a.slug));
    expect(overlap).toEqual([]);
    expect(first.items.at(-1)?.startAt).toBeLessThanOrEqual(second.items[0]?.startAt ?? 0);
    const past = await service.list({ page: 99, pageSize: 10 });
    expect(past.items).toEqual([]);
  });

  it("serves a detail with neighbours, others and localised text with English fallback", async () => {
    const en = await service.detail("notcoin", "en");
    expect(en.airdrop.name).toBe("Notcoin");
    expect(en.airdrop.status).toBe("closed");
    expect(en.previous ?? en.next).not.toBeNull();
    expect(en.others.length).toBeGreaterThan(0);
    expect(en.others.some((o) => o.slug === "notcoin")).toBe(false);
    const ja = await service.detail("notcoin", "ja");
    expect(ja.airdrop.description).toContain("Telegram");
    expect(ja.airdrop.description).not.toBe(en.airdrop.description);
    expect(ja.airdrop.contentLocale).toBe("ja");
    expect(ja.airdrop.contentLanguages).toEqual(expect.arrayContaining(["en", "ja"]));
    // Arbitrum is written in English only: its German page is the English one.
    const arbitrum = await service.detail("arbitrum", "en");
    const de = await service.detail("arbitrum", "de");
    expect(de.airdrop.description).toBe(arbitrum.airdrop.description);
    expect(de.airdrop.contentLocale).toBe("en");
    expect(de.airdrop.contentLanguages).toEqual(["en"]);
    await expect(service.detail("no-such-airdrop", "en")).rejects.toMatchObject({ status: 404 });
  });

  it("hides unpublished airdrops from every public read", async () => {
    const before = await service.detail("dogs", "en");
    const row = await db.get<{ id: number }>("SELECT id FROM airdrops WHERE slug = 'dogs'");
    await service.publish(Number(row?.id), false);
    await expect(service.detail("dogs", "en")).rejects.toMatchObject({ status: 404 });
    expect((await service.list(query({ q: "dogs" }))).total).toBe(0);
    expect((await service.index("en")).items.some((i) => i.slug === "dogs")).toBe(false);
    await service.publish(Number(row?.id), true);
    expect((await service.detail("dogs", "en")).airdrop.slug).toBe(before.airdrop.slug);
  });

  it("serves one news item with its airdrop and other news; unknown or unpublished is 404", async () => {
    const { items } = await service.newsList("en", 1, 50);
    const first = items.find((n) => n.airdropSlug !== null) ?? items[0];
    if (!first) throw new Error("seed has no news");
    const detail = await service.newsDetail(first.slug, "en");
    expect(detail.item.slug).toBe(first.slug);
    expect(detail.item.title).toBe(first.title);
    expect(detail.item.updatedAt).toBeGreaterThan(0);
    expect(detail.item.contentLocale).toBe("en");
    if (first.airdropSlug) expect(detail.item.airdropName).toBeTruthy();
    expect(detail.related.some((n) => n.slug === first.slug)).toBe(false);
    expect((await service.index("en")).news.some((n) => n.slug === first.slug)).toBe(true);
    // The admin list carries the body, so editing an item does not blank it.
    const adminRow = (await service.adminList()).news.find((n) => n.slug === first.slug);
    expect(adminRow?.body).toBe(detail.item.body);
    await expect(service.newsDetail("no-such-news", "en")).rejects.toMatchObject({ status: 404 });
    const row = await db.get<{ id: number }>("SELECT id FROM airdrop_news WHERE slug = ?", [first.slug]);
    await service.publishNews(Number(row?.id), false);
    await expect(service.newsDetail(first.slug, "en")).rejects.toMatchObject({ status: 404 });
    expect((await service.index("en")).news.some((n) => n.slug === first.slug)).toBe(false);
    await service.publishNews(Number(row?.id), true);
  });

  it("an admin edit of the English text keeps the other locales of an airdrop", async () => {
    const ja = await service.detail("notcoin", "ja");
    const stored = await service.adminGet("notcoin");
    // The editor's language switch reads every stored language.
    expect(stored.translations.ja?.about).toContain("コミュニティ");
    const {
      id,
      createdAt: _c,
      updatedAt: _u,
      translations: _tr,
      ...english
    } = stored as typeof stored & Record<string, unknown>;
    // What the admin form sends: English fields only, no translations.
    const body = airdropInputSchema.parse({ ...english, description: "Edited English description." });
    expect(body.translations).toEqual({});
    await service.update(id, body);
    expect((await service.detail("notcoin", "en")).airdrop.description).toBe("Edited English description.");
    expect((await service.detail("notcoin", "ja")).airdrop.description).toBe(ja.airdrop.description);
    // A locale without its body is not written in that language: the page stays English.
    // (The demo content is written in French: its body is dropped first.)
    await service.update(id, airdropInputSchema.parse({ ...english, translations: { fr: { about: "" } } }));
    await service.update(
      id,
      airdropInputSchema.parse({
        ...english,
        translations: { fr: { description: "Description en français." } },
      }),
    );
    const partial = await service.detail("notcoin", "fr");
    expect(partial.airdrop.description).toBe(english.description);
    expect(partial.airdrop.contentLocale).toBe("en");
    expect(partial.airdrop.contentLanguages).not.toContain("fr");
    // With its body it is: editing one locale leaves the others.
    await service.update(
      id,
      airdropInputSchema.parse({ ...english, translations: { fr: { about: "<p>À propos.</p>" } } }),
    );
    const fr = await service.detail("notcoin", "fr");
    expect(fr.airdrop.description).toBe("Description en français.");
    expect(fr.airdrop.contentLanguages).toEqual(expect.arrayContaining(["en", "fr", "ja"]));
    expect((await service.detail("notcoin", "ja")).airdrop.description).toBe(ja.airdrop.description);
    // An empty string drops that field: without its body the page falls back to English whole.
    await service.update(id, airdropInputSchema.parse({ ...english, translations: { fr: { about: "" } } }));
    expect((await service.detail("notcoin", "fr")).airdrop.description).toBe(english.description);
    expect((await service.detail("notcoin", "ja")).airdrop.description).toBe(ja.airdrop.description);
  });

  it("an admin edit of a news item keeps its other locales", async () => {
    const input = {
      slug: "translation-keeper",
      title: "English title",
      summary: "English summary",
      body: "<p>Body</p>",
      publishedAt: NOW - 3600_000,
      published: true,
      translations: {
        ja: { title: "日本語のタイトル", summary: "日本語の要約", body: "<p>本文</p>" },
        fr: { title: "Titre français", body: "<p>Corps</p>" },
      },
    };
    const { id } = await service.saveNews(airdropNewsInputSchema.parse(input));
    const title = async (locale: string) => (await service.newsDetail(input.slug, locale)).item.title;
    expect(await title("ja")).toBe("日本語のタイトル");
    // The admin form: English fields only.
    const { translations: _t, ...english } = input;
    await service.saveNews(airdropNewsInputSchema.parse({ ...english, title: "Edited English title" }), id);
    expect(await title("en")).toBe("Edited English title");
    expect(await title("ja")).toBe("日本語のタイトル");
    expect(await title("fr")).toBe("Titre français");
    const jaItem = (await service.newsDetail(input.slug, "ja")).item;
    expect(jaItem.summary).toBe("日本語の要約");
    expect(jaItem.body).toBe("<p>本文</p>");
    expect(jaItem.contentLanguages).toEqual(["en", "fr", "ja"]);
    // One locale edited: only that one changes. A create-form save of the same slug keeps them too.
    await service.saveNews(
      airdropNewsInputSchema.parse({ ...english, translations: { fr: { title: "Nouveau titre" } } }),
      id,
    );
    expect(await title("fr")).toBe("Nouveau titre");
    expect(await title("ja")).toBe("日本語のタイトル");
    await service.saveNews(airdropNewsInputSchema.parse(english));
    expect(await title("ja")).toBe("日本語のタイトル");
    expect(await title("fr")).toBe("Nouveau titre");
  });
});
