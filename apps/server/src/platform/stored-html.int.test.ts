import { Code, TG_APPS_API } from "@meridian/contracts";
import { DEFAULT_PRODUCT_DOMAIN_PATTERNS } from "@meridian/sanitize";
import { HTML_LIMITS } from "@meridian/sanitize/bounds";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moduleStoredHtml } from "../modules/index.ts";
import { TG_APPS_STORED_HTML, tgAppsModule } from "../modules/tg-apps/index.ts";
import { type AdminTestApp, adminTestApp } from "../test/accounts.ts";
import { reopenableDbTargets } from "../test/db-targets.ts";
import type { PlatformDb } from "./db/index.ts";
import { refreshStaleRow, refreshStoredHtml, SANITIZER_VERSION, useProductDomains } from "./stored-html.ts";

const app = (slug: string, longDescription: string) => ({
  slug,
  name: `App ${slug}`,
  category: 3,
  botUsername: `${slug.replace(/-/g, "_")}_bot`,
  platforms: ["ios"],
  shortDescription: "Short",
  longDescription,
});

describe.each(reopenableDbTargets("storedhtml"))("stored HTML ($name)", (target) => {
  let db: PlatformDb;
  let t: AdminTestApp;
  let cleanup: () => Promise<void>;
  let cookie: string;

  beforeAll(async () => {
    const opened = await target.open();
    cleanup = opened.cleanup;
    db = opened.db();
    t = await adminTestApp(db, [tgAppsModule()]);
    cookie = await t.login("admin");
  }, 60_000);
  afterAll(async () => {
    await t.app.close();
    await db.close();
    await cleanup();
  });

  const save = (body: unknown) =>
    t.app.inject({
      method: "POST",
      url: TG_APPS_API.adminApps,
      headers: { ...t.headers(cookie), "content-type": "application/json" },
      payload: JSON.stringify(body),
    });

  it("sanitises on write and stores the clean HTML with the sanitiser's version", async () => {
    const res = await save(app("clean-one", '<p onclick="x()">Hi<script>alert(1)</script></p>'));
    expect(res.statusCode).toBe(200);
    const row = await db.get<{ long_description: string; html_version: number }>(
      "SELECT long_description, html_version FROM tg_apps WHERE slug = 'clean-one'",
    );
    expect(row?.long_description).toBe("<p>Hi</p>");
    expect(Number(row?.html_version)).toBe(SANITIZER_VERSION);
  });

  it("refuses nesting past the bound with a 400 naming the field and the bound; nothing stored", async () => {
    // 9 KB: within the schema's 20,000 characters, 3,000 levels deep.
    const deep = `${"<b>".repeat(3000)}x`;
    const res = await save(app("too-deep", deep));
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe(Code.VALIDATION_FAILED);
    expect(body.msg).toContain("longDescription");
    expect(body.msg).toContain(`at most ${HTML_LIMITS.maxDepth}`);
    expect(body.data[0]).toMatchObject({ field: "longDescription", rule: "too_deep" });
    const translated = await save({
      ...app("too-deep-ar", "<p>ok</p>"),
      translations: { ar: { longDescription: deep } },
    });
    expect(translated.statusCode).toBe(400);
    expect(translated.json().data[0].field).toBe("translations.ar.longDescription");
    const rows = await db.all("SELECT slug FROM tg_apps WHERE slug LIKE 'too-deep%'");
    expect(rows).toEqual([]);
  });

  it("serves the stored HTML as stored: a page view runs no sanitiser", async () => {
    await save(app("served", "<p>Served</p>"));
    // Written behind the API's back but marked current: what a view returns is the row, untouched.
    await db.run("UPDATE tg_apps SET long_description = ? WHERE slug = 'served'", ['<p data-x="1">Row</p>']);
    const res = await t.app.inject({ url: "/v1/content/tg-apps/served?locale=en" });
    expect(res.json().data.app.longDescription).toBe('<p data-x="1">Row</p>');
  });

  it("cleans rows of an older sanitiser version again at start, translations included", async () => {
    await save({ ...app("stale", "<p>x</p>"), translations: { ar: { longDescription: "<p>ar</p>" } } });
    await db.run("UPDATE tg_apps SET long_description = ?, html_version = 0 WHERE slug = 'stale'", [
      '<p><img src=x onerror="alert(1)">old</p>',
    ]);
    await db.run(
      "UPDATE tg_app_texts SET value = ? WHERE field = 'longDescription' AND app_id = (SELECT id FROM tg_apps WHERE slug = 'stale')",
      ['<a href="javascript:alert(1)">ar</a>'],
    );
    const refreshed = await refreshStoredHtml(db, moduleStoredHtml);
    expect(refreshed).toBeGreaterThanOrEqual(1);
    const row = await db.get<{ long_description: string; html_version: number }>(
      "SELECT long_description, html_version FROM tg_apps WHERE slug = 'stale'",
    );
    expect(row?.long_description).toBe("<p><img>old</p>");
    expect(Number(row?.html_version)).toBe(SANITIZER_VERSION);
    const text = await db.get<{ value: string }>(
      "SELECT value FROM tg_app_texts WHERE field = 'longDescription' AND app_id = (SELECT id FROM tg_apps WHERE slug = 'stale')",
    );
    expect(text?.value).toBe("<a>ar</a>");
    expect(await refreshStoredHtml(db, moduleStoredHtml)).toBe(0);
  });

  it("cleans a row an older sanitiser wrote once, when it is read, and serves the clean result", async () => {
    // An instance of an older version, sharing this database, writes after this one started.
    await save({ ...app("late-stale", "<p>x</p>"), translations: { ar: { longDescription: "<p>ar</p>" } } });
    await db.run("UPDATE tg_apps SET long_description = ?, html_version = ? WHERE slug = 'late-stale'", [
      '<p><img src=x onerror="alert(1)">late</p>',
      SANITIZER_VERSION - 1,
    ]);
    await db.run(
      "UPDATE tg_app_texts SET value = ? WHERE field = 'longDescription' AND app_id = (SELECT id FROM tg_apps WHERE slug = 'late-stale')",
      ['<a href="javascript:alert(1)">ar</a>'],
    );
    const en = await t.app.inject({ url: "/v1/content/tg-apps/late-stale?locale=en" });
    expect(en.json().data.app.longDescription).toBe("<p><img>late</p>");
    const row = await db.get<{ long_description: string; html_version: number }>(
      "SELECT long_description, html_version FROM tg_apps WHERE slug = 'late-stale'",
    );
    expect(row?.long_description).toBe("<p><img>late</p>");
    expect(Number(row?.html_version)).toBe(SANITIZER_VERSION);
    const ar = await t.app.inject({ url: "/v1/content/tg-apps/late-stale?locale=ar" });
    expect(ar.json().data.app.longDescription).toBe("<a>ar</a>");
  });

  it("cleans a stale row once however many readers race for it", async () => {
    await save(app("raced", "<p>x</p>"));
    await db.run("UPDATE tg_apps SET long_description = ?, html_version = 0 WHERE slug = 'raced'", [
      "<p onclick=x()>raced</p>",
    ]);
    const id = Number((await db.get<{ id: number }>("SELECT id FROM tg_apps WHERE slug = 'raced'"))?.id);
    const cleaned = await Promise.all(
      Array.from({ length: 8 }, () => refreshStaleRow(db, TG_APPS_STORED_HTML[0], id)),
    );
    expect(cleaned.filter(Boolean)).toHaveLength(1);
    const pages = await Promise.all(
      Array.from({ length: 4 }, () => t.app.inject({ url: "/v1/content/tg-apps/raced?locale=en" })),
    );
    for (const page of pages) expect(page.json().data.app.longDescription).toBe("<p>raced</p>");
  });

  it("leaves a row of a newer sanitiser alone at start (a newer instance on the same database)", async () => {
    await save(app("newer", "<p>x</p>"));
    // html_version is the sanitiser's code version x 1,000,000 plus a digest of its settings.
    await db.run("UPDATE tg_apps SET long_description = ?, html_version = ? WHERE slug = 'newer'", [
      '<p data-newer="1">newer</p>',
      SANITIZER_VERSION + 1_000_000,
    ]);
    await refreshStoredHtml(db, moduleStoredHtml);
    const row = await db.get<{ long_description: string; html_version: number }>(
      "SELECT long_description, html_version FROM tg_apps WHERE slug = 'newer'",
    );
    expect(row?.long_description).toBe('<p data-newer="1">newer</p>');
    expect(Number(row?.html_version)).toBe(SANITIZER_VERSION + 1_000_000);
  });

  it("makes links to the product's domains relative, and again for every row when the list changes", async () => {
    const html =
      '<p><a href="https://www.meridian.com/ja/fee?x=1#y">fees</a> <a href="https://docs.example.org/a">docs</a></p>';
    await save(app("links", html));
    const stored = async () =>
      (
        await db.get<{ long_description: string }>(
          "SELECT long_description FROM tg_apps WHERE slug = 'links'",
        )
      )?.long_description;
    expect(await stored()).toBe(
      '<p><a href="/ja/fee?x=1#y">fees</a> <a href="https://docs.example.org/a" rel="noopener noreferrer">docs</a></p>',
    );
    const before = SANITIZER_VERSION;
    try {
      useProductDomains([...DEFAULT_PRODUCT_DOMAIN_PATTERNS, "*.example.org"]);
      expect(SANITIZER_VERSION).not.toBe(before);
      expect(await refreshStoredHtml(db, moduleStoredHtml)).toBeGreaterThanOrEqual(1);
      // the rel the first cleaning added stays: harmless on a link that now stays on the site
      expect(await stored()).toBe(
        '<p><a href="/ja/fee?x=1#y">fees</a> <a href="/a" rel="noopener noreferrer">docs</a></p>',
      );
    } finally {
      useProductDomains(DEFAULT_PRODUCT_DOMAIN_PATTERNS);
    }
    const res = await t.app.inject({ url: "/v1/content/tg-apps/links?locale=en" });
    expect(res.json().data.app.longDescription).toContain('href="/ja/fee?x=1#y"');
  });
});
