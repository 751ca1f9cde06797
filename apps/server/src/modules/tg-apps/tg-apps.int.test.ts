import { Code, TG_APP_RANKING, TG_RATING_LIMIT, TgAppCode, type TgAppListResult } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlatformDb } from "../../platform/db/index.ts";
import { openPostgres } from "../../platform/db/postgres.ts";
import { openSqlite } from "../../platform/db/sqlite.ts";
import { accountsTestApp, loginNewUser, TEST_HOST } from "../../test/accounts.ts";
import type { AccountsService } from "../accounts/index.ts";
import { contentSeed, loadContent } from "../content/index.ts";
import { seedTgApps, tgAppsModule } from "./index.ts";
import { TgAppsRepo } from "./repo.ts";

const CONTENT = loadContent();
const SEED_APPS = CONTENT.apps;
// Written Russian and Spanish Notcoin pages, as translators' files would add them.
const notcoinFiles = SEED_APPS.find((a) => a.slug === "notcoin");
if (notcoinFiles) {
  notcoinFiles.texts.ru = {
    shortDescription: "Тап-игра, познакомившая миллионы людей с TON; теперь центр сообщества.",
    longDescription: "<p>Notcoin — это игра и сообщество в Telegram.</p>",
  };
  notcoinFiles.texts.es = {
    shortDescription: "El juego de toques que presentó TON a millones de personas.",
    longDescription: "<p>Notcoin es un juego y una comunidad en Telegram.</p>",
  };
}

const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

interface Target {
  name: string;
  open(): Promise<{ db: PlatformDb; cleanup(): Promise<void> }>;
}

const targets: Target[] = [
  { name: "sqlite", open: async () => ({ db: openSqlite(":memory:"), cleanup: async () => undefined }) },
];
if (pgUrl) {
  targets.push({
    name: "postgres",
    open: async () => {
      const schema = `tg_${process.pid}_${Date.now().toString(36)}`;
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA "${schema}"`);
      const db = openPostgres({ connectionString: pgUrl, schema, max: 8 });
      return {
        db,
        cleanup: async () => {
          await db.close();
          await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
          await admin.end();
        },
      };
    },
  });
}

const accountsOf = new WeakMap<FastifyInstance, AccountsService>();

/** The accounts module and this module, with the accounts service kept for the tests. */
async function appOn(db: PlatformDb, redis?: Redis): Promise<FastifyInstance> {
  const { app, accounts } = await accountsTestApp({
    db,
    ...(redis === undefined ? {} : { redis }),
    modules: [tgAppsModule()],
  });
  accountsOf.set(app, accounts);
  return app;
}

function accountsService(app: FastifyInstance): AccountsService {
  const accounts = accountsOf.get(app);
  if (accounts === undefined) throw new Error("no accounts module");
  return accounts;
}

/** A fresh account's session cookie (created and logged in through the accounts service). */
const login = (app: FastifyInstance, role: "user" | "admin" = "user") =>
  loginNewUser(accountsService(app), role);

function rate(app: FastifyInstance, cookie: string, slug: string, stars: number) {
  return app.inject({
    method: "POST",
    url: `/v1/content/tg-apps/${slug}/rating`,
    headers: { host: TEST_HOST, origin: `http://${TEST_HOST}`, cookie, "content-type": "application/json" },
    payload: JSON.stringify({ stars }),
  });
}

async function list(app: FastifyInstance, query: string): Promise<TgAppListResult> {
  const res = await app.inject({ method: "GET", url: `/v1/content/tg-apps?${query}` });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: TgAppListResult }).data;
}

describe.each(targets)("apps and bot center ($name)", (target) => {
  let app: FastifyInstance;
  let db: PlatformDb;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const opened = await target.open();
    db = opened.db;
    cleanup = opened.cleanup;
    app = await appOn(db);
    await seedTgApps(db, { apps: CONTENT.apps, articles: CONTENT.articles });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await cleanup?.();
  });

  it("ranks Weekly trending and Hot on the tracker's visits when given, else on the own counter", async () => {
    const [first, second] = [SEED_APPS[5]?.slug ?? "", SEED_APPS[6]?.slug ?? ""];
    const tracked = new TgAppsRepo(
      db,
      Date.now,
      async () =>
        new Map([
          [first, { v7: 0, v30: 9_000 }],
          [second, { v7: 5_000, v30: 5_000 }],
          ["no-such-app", { v7: 99_999, v30: 99_999 }],
        ]),
    );
    const trending = await tracked.list({ tab: "weekly-trending", q: "", limit: 1, offset: 0 }, ["en", "en"]);
    expect(trending.items[0]?.slug).toBe(second);
    expect(trending.items[0]?.trendScore).toBeGreaterThanOrEqual(5_000);
    const hot = await tracked.list({ tab: "hot", q: "", limit: 2, offset: 0 }, ["en", "en"]);
    expect(hot.items.map((a) => a.slug)).toEqual([first, second]);
    expect((await tracked.bySlug(first, ["en", "en"]))?.hot).toBe(true);

    // No tracked visits: the seeded own counter decides, as before.
    const own = new TgAppsRepo(db, Date.now, async () => undefined);
    const plain = new TgAppsRepo(db);
    const ownHot = await own.list({ tab: "hot", q: "", limit: 12, offset: 0 }, ["en", "en"]);
    const plainHot = await plain.list({ tab: "hot", q: "", limit: 12, offset: 0 }, ["en", "en"]);
    expect(ownHot.items.map((a) => a.slug)).toEqual(plainHot.items.map((a) => a.slug));
    expect(ownHot.items[0]?.hotScore).toBeLessThan(9_000);
  });

  it("lists every app under All, with the ecosystem total", async () => {
    const page = await list(app, "tab=all&pageSize=100");
    expect(page.totalApps).toBe(SEED_APPS.length);
    expect(page.total).toBe(SEED_APPS.length);
    expect(SEED_APPS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(page.items.map((a) => a.category))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7]));
  });

  it("filters by category tab and pages through it", async () => {
    const games = await list(app, "tab=games&pageSize=4");
    const expected = SEED_APPS.filter((a) => a.item.category === 2).length;
    expect(games.total).toBe(expected);
    expect(games.items).toHaveLength(4);
    expect(games.items.every((a) => a.category === 2)).toBe(true);
    const rest = await list(app, "tab=games&pageSize=4&page=3");
    expect(rest.items).toHaveLength(expected - 8);
    const all = new Set([
      ...games.items.map((a) => a.slug),
      ...(await list(app, "tab=games&pageSize=4&page=2")).items.map((a) => a.slug),
      ...rest.items.map((a) => a.slug),
    ]);
    expect(all.size).toBe(expected);
    expect((await list(app, "tab=open-league")).items.every((a) => a.category === 1)).toBe(true);
  });

  it("searches names, bots, tags and descriptions by word prefix in the page's language", async () => {
    const hits = await list(app, "q=NOTC&pageSize=100");
    expect(hits.items[0]?.slug).toBe("notcoin");
    expect((await list(app, "tab=play-to-earn&q=notcoin")).items[0]?.slug).toBe("notcoin");
    expect((await list(app, "tab=management&q=notcoin")).total).toBe(0);
    // The name outranks a mention in another app's description.
    expect((await list(app, "q=wallet&pageSize=100")).items[0]?.slug).toBe("wallet");
    expect((await list(app, "q=validators&pageSize=100")).items.map((a) => a.slug)).toContain("tonstakers");
    expect((await list(app, "q=zzzz-nothing")).items).toEqual([]);
    expect((await list(app, "q=%25")).total).toBe(0);
    expect((await list(app, "q=_")).total).toBe(0);
    // The Russian text is searched from the Russian page.
    expect((await list(app, "q=тап-игр&locale=ru")).items[0]?.slug).toBe("notcoin");
    expect((await list(app, "q=тап-игр&locale=en")).total).toBe(0);
  });

  it("derives New from listing dates and Hot from visits and raters", async () => {
    const fresh = await list(app, "tab=new&pageSize=100");
    expect(fresh.total).toBe(TG_APP_RANKING.NEW_COUNT);
    expect(fresh.items[0]?.slug).toBe("tonchess");
    expect(fresh.items.every((a) => a.tags.includes("new"))).toBe(true);
    const hot = await list(app, "tab=hot&pageSize=100");
    expect(hot.total).toBe(TG_APP_RANKING.HOT_COUNT);
    expect(hot.items.every((a) => a.tags.includes("hot"))).toBe(true);
    const all = await list(app, "pageSize=100");
    expect(all.items.filter((a) => a.tags.includes("hot"))).toHaveLength(TG_APP_RANKING.HOT_COUNT);
    const trending = await list(app, "tab=weekly-trending&pageSize=100");
    expect(trending.total).toBeGreaterThan(10);
  });

  it("overlays localised text on English, through the content base locale", async () => {
    const ru = await list(app, "q=notcoin&locale=ru");
    expect(ru.items[0]?.shortDescription).toMatch(/TON/);
    expect(ru.items[0]?.shortDescription).toMatch(/[а-я]/);
    const esAr = await list(app, "q=notcoin&locale=es-AR");
    expect(esAr.items[0]?.shortDescription).toMatch(/^El juego/);
    const ja = await list(app, "q=notcoin&locale=ja");
    expect(ja.items[0]?.shortDescription).toMatch(/^何百万人/);
    // Bums is written in English only; a short description alone does not make it
    // written in German: English stays.
    const id = (await db.get<{ id: number }>("SELECT id FROM tg_apps WHERE slug = 'bums'"))?.id;
    await db.run(
      "INSERT INTO tg_app_texts (app_id, locale, field, value) VALUES (?, 'de', 'shortDescription', ?)",
      [id ?? 0, "Tippen und aufsteigen"],
    );
    const de = await list(app, "q=bums&locale=de");
    expect(de.items[0]?.shortDescription).toMatch(/^Tap, upgrade/);
    const detail = async (slug: string, locale: string) =>
      (
        (await app.inject({ method: "GET", url: `/v1/content/tg-apps/${slug}?locale=${locale}` })).json() as {
          data: import("@meridian/contracts").TgAppDetailResult;
        }
      ).data.app;
    expect((await detail("bums", "de")).contentLocale).toBe("en");
    expect((await detail("notcoin", "es-AR")).contentLocale).toBe("es");
    expect((await detail("notcoin", "ru")).contentLanguages).toEqual(
      expect.arrayContaining(["en", "es", "ru"]),
    );
    expect((await detail("bums", "de")).contentLanguages).toEqual(["en"]);
    const sitemap = (
      (await app.inject({ method: "GET", url: "/v1/content/tg-apps/sitemap" })).json() as {
        data: import("@meridian/contracts").TgSitemapEntry[];
      }
    ).data;
    expect(sitemap.find((e) => e.slug === "notcoin")?.contentLanguages).toEqual(
      expect.arrayContaining(["en", "es", "ru", "ja"]),
    );
    expect(sitemap.find((e) => e.slug === "bums")?.contentLanguages).toEqual(["en"]);
  });

  it("answers a detail with its rails, counts a visit, and 404s an unknown app", async () => {
    const res = await app.inject({ method: "GET", url: "/v1/content/tg-apps/ston-fi?locale=en" });
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as { data: import("@meridian/contracts").TgAppDetailResult };
    expect(data.app.openUrl).toBe("https://t.me/stonfi_bot?start=meridian");
    expect(data.app.screenshots.length).toBeGreaterThan(0);
    expect(data.relatedArticles.map((a) => a.slug)).toContain("how-to-swap-on-ston-fi");
    expect(data.youMightAlsoLike.every((a) => a.category === 1 && a.slug !== "ston-fi")).toBe(true);
    const seen = [data.app.slug, ...data.youMightAlsoLike, ...data.hotApps, ...data.moreApps].map((a) =>
      typeof a === "string" ? a : a.slug,
    );
    expect(new Set(seen).size).toBe(seen.length);
    const visits = await db.get<{ v: number | string }>(
      "SELECT SUM(visits) AS v FROM tg_app_visits v JOIN tg_apps a ON a.id = v.app_id WHERE a.slug = 'ston-fi' AND v.day = ?",
      [Math.floor(Date.now() / 86_400_000)],
    );
    expect(Number(visits?.v)).toBeGreaterThan(0);
    const missing = await app.inject({ method: "GET", url: "/v1/content/tg-apps/no-such-app" });
    expect(missing.statusCode).toBe(404);
    const articles = await app.inject({ method: "GET", url: "/v1/content/tg-apps/ston-fi/articles" });
    expect((articles.json() as { data: { articles: { body: string }[] } }).data.articles[0]?.body).toMatch(
      /<h2>/,
    );
  });

  it("asks anonymous visitors to log in before rating", async () => {
    const res = await rate(app, "", "notcoin", 5);
    expect((res.json() as { code: string }).code).toBe(Code.SESSION_INVALID);
  });

  it("keeps one rating per user per app and the aggregate in step", async () => {
    const cookie = await login(app);
    const before = (await list(app, "q=fragment")).items[0];
    const first = await rate(app, cookie, "fragment", 5);
    expect(first.statusCode).toBe(200);
    const a = (first.json() as { data: { rating: number; ratingCount: number } }).data;
    expect(a.ratingCount).toBe((before?.ratingCount ?? 0) + 1);
    const second = await rate(app, cookie, "fragment", 1);
    const b = (second.json() as { data: { rating: number; ratingCount: number } }).data;
    expect(b.ratingCount).toBe(a.ratingCount);
    expect(b.rating).toBeLessThan(a.rating);
    const row = await db.get<{ n: number | string; s: number | string }>(
      "SELECT COUNT(*) AS n, SUM(stars) AS s FROM tg_app_ratings r JOIN tg_apps a ON a.id = r.app_id WHERE a.slug = 'fragment'",
    );
    const stored = await db.get<{ rating_count: number | string; rating_sum: number | string }>(
      "SELECT rating_count, rating_sum FROM tg_apps WHERE slug = 'fragment'",
    );
    expect(Number(stored?.rating_count)).toBe(Number(row?.n));
    expect(Number(stored?.rating_sum)).toBe(Number(row?.s));
    expect((await rate(app, cookie, "fragment", 6)).statusCode).toBe(400);
  });

  it("admits exactly the allowed number of many simultaneous ratings by one user", async () => {
    const cookie = await login(app);
    const slugs = SEED_APPS.slice(0, 20).map((a) => a.slug);
    const answers = await Promise.all(slugs.map((slug) => rate(app, cookie, slug, 4)));
    const codes = answers.map((r) => (r.json() as { code: string }).code);
    expect(codes.filter((c) => c === "00000")).toHaveLength(TG_RATING_LIMIT.limit);
    expect(codes.filter((c) => c === TgAppCode.RATING_TOO_FREQUENT)).toHaveLength(
      slugs.length - TG_RATING_LIMIT.limit,
    );
    expect(answers.find((r) => r.statusCode === 429)?.headers["retry-after"]).toBeDefined();
    const userId = (await accountsService(app).authenticate(cookie.split("=")[1])).user.id;
    const stored = await db.get<{ n: number | string }>(
      "SELECT COUNT(*) AS n FROM tg_app_ratings WHERE user_id = ?",
      [userId],
    );
    expect(Number(stored?.n)).toBe(TG_RATING_LIMIT.limit);
  });

  it("keeps the aggregate exact when many users rate one app at once", async () => {
    const cookies = [];
    for (let i = 0; i < 8; i++) cookies.push(await login(app));
    const before = await db.get<{ rating_count: number | string }>(
      "SELECT rating_count FROM tg_apps WHERE slug = 'gif'",
    );
    await Promise.all(cookies.map((c, i) => rate(app, c, "gif", (i % 5) + 1)));
    const after = await db.get<{ rating_count: number | string; rating_sum: number | string }>(
      "SELECT rating_count, rating_sum FROM tg_apps WHERE slug = 'gif'",
    );
    const real = await db.get<{ n: number | string; s: number | string }>(
      "SELECT COUNT(*) AS n, SUM(stars) AS s FROM tg_app_ratings r JOIN tg_apps a ON a.id = r.app_id WHERE a.slug = 'gif'",
    );
    expect(Number(after?.rating_count)).toBe(Number(before?.rating_count) + cookies.length);
    expect(Number(after?.rating_count)).toBe(Number(real?.n));
    expect(Number(after?.rating_sum)).toBe(Number(real?.s));
  });

  it("queues a submission for review; approval turns it into an app", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/v1/content/tg-apps/submissions",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({
        name: "Quiz Master",
        botUsername: "@quizmaster_tbot",
        website: "https://quiz.example.com",
        category: 5,
        email: "owner@example.com",
        description: "Daily quizzes with friends in any group chat.",
      }),
    });
    expect(res.statusCode).toBe(200);
    const { id } = (res.json() as { data: { id: number } }).data;
    const bad = await app.inject({
      method: "POST",
      url: "/v1/content/tg-apps/submissions",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ name: "x", botUsername: "no", category: 9, email: "nope", description: "" }),
    });
    expect(bad.statusCode).toBe(400);

    const userCookie = await login(app);
    const denied = await app.inject({
      method: "GET",
      url: "/v1/admin/tg-apps/submissions",
      headers: { host: TEST_HOST, cookie: userCookie },
    });
    expect(denied.statusCode).toBe(403);

    const adminCookie = await login(app, "admin");
    const headers = { host: TEST_HOST, origin: `http://${TEST_HOST}`, cookie: adminCookie };
    const queue = await app.inject({ method: "GET", url: "/v1/admin/tg-apps/submissions", headers });
    expect((queue.json() as { data: { id: number; status: string }[] }).data[0]).toMatchObject({
      id,
      status: "pending",
    });
    const approve = await app.inject({
      method: "POST",
      url: `/v1/admin/tg-apps/submissions/${id}`,
      headers: { ...headers, "content-type": "application/json" },
      payload: JSON.stringify({ decision: "approve" }),
    });
    expect((approve.json() as { data: { appSlug: string } }).data.appSlug).toBe("quiz-master");
    const again = await app.inject({
      method: "POST",
      url: `/v1/admin/tg-apps/submissions/${id}`,
      headers: { ...headers, "content-type": "application/json" },
      payload: JSON.stringify({ decision: "approve" }),
    });
    expect(again.statusCode).toBe(409);
    expect((await list(app, "q=quiz")).items[0]?.slug).toBe("quiz-master");

    // The admin form reads an article with its translations, so a save keeps them.
    const article = await app.inject({
      method: "GET",
      url: "/v1/admin/tg-apps/articles/how-to-swap-on-ston-fi",
      headers,
    });
    const stored = (article.json() as { data: { appSlug: string; body: string; translations: object } }).data;
    expect(stored.appSlug).toBe("ston-fi");
    expect(stored.body).toContain("<");
    const none = await app.inject({
      method: "GET",
      url: "/v1/admin/tg-apps/articles/no-such-article",
      headers,
    });
    expect(none.statusCode).toBe(404);
  });
});

describe.runIf(redisUrl)("rating frequency limit through Redis", () => {
  let app: FastifyInstance;
  let redis: Redis;
  beforeAll(async () => {
    redis = new Redis(redisUrl ?? "", { lazyConnect: true, maxRetriesPerRequest: 0 });
    await redis.connect();
    const db = openSqlite(":memory:");
    app = await appOn(db, redis);
    app.addHook("onClose", () => db.close());
    await contentSeed.seed(db, { log: app.log });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await redis?.quit();
  });

  it("admits exactly the limit of simultaneous ratings, counted in Redis", async () => {
    expect(app.rateLimiter.kind).toBe("redis");
    const cookie = await login(app);
    const slugs = SEED_APPS.slice(20, 45).map((a) => a.slug);
    const answers = await Promise.all(slugs.map((slug) => rate(app, cookie, slug, 5)));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(TG_RATING_LIMIT.limit);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(slugs.length - TG_RATING_LIMIT.limit);
  });
});
