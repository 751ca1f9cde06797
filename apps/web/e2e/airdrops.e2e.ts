/**
 * The airdrop library in a real browser against the production server: home, the All
 * airdrops list (filter and sort through URL links), a detail page, the buy prompt into
 * registration with the account prefilled, the head tags search engines read, and the
 * sitemaps.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { CONTENT_ONLY_LOCALES, VISIBLE_LOCALES } from "@meridian/contracts/locales";
import { describe, expect, test } from "vitest";
import { hydrated, newPage, type Page, repoRoot, serverAndBrowser } from "./harness.ts";

const run = serverAndBrowser();

// The visitor is anonymous: the shell logs the failed user-info call.
const ANONYMOUS = [/get user info error/i, /401/];

async function headTags(page: Page) {
  return page.evaluate(() => ({
    title: document.title,
    canonical: document.querySelector('link[rel="canonical"]')?.getAttribute("href") ?? null,
    hreflang: [...document.querySelectorAll('link[rel="alternate"][hreflang]')].map((l) => ({
      lang: l.getAttribute("hreflang"),
      href: l.getAttribute("href"),
    })),
    description: document.querySelector('meta[name="description"]')?.getAttribute("content") ?? null,
    ogTitle: document.querySelector('meta[property="og:title"]')?.getAttribute("content") ?? null,
    twitter: document.querySelector('meta[name="twitter:card"]')?.getAttribute("content") ?? null,
    jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map(
      (s) => s.textContent ?? "",
    ),
  }));
}

describe("airdrop library", () => {
  test("home: sections, FAQ accordion by keyboard, head tags and JSON-LD", async () => {
    const page = await newPage(run.browser, { allowErrors: ANONYMOUS });
    const response = await page.goto(`${run.server.url}/airdrops`);
    expect(response?.status()).toBe(200);
    await expect(page.locator("h1").textContent()).resolves.toBe("Crypto airdrops");
    await expect(page.locator("#ad-popular + table tbody tr").count()).resolves.toBe(8);
    const year = String(new Date().getUTCFullYear());
    await expect(page.locator("#ad-prediction").textContent()).resolves.toContain(year);
    const faqHeaders = page.locator(".ad-faq .ad-faq-header");
    await expect(faqHeaders.count()).resolves.toBe(8);

    await faqHeaders.first().focus();
    // Pressed before hydration (the page hydrates after its first paint), the key is replayed once React is in.
    await page.keyboard.press("Enter");
    await expect.poll(() => faqHeaders.first().getAttribute("aria-expanded")).toBe("true");

    const head = await headTags(page);
    expect(head.title).toContain(year);
    expect(head.canonical).toBe(`${run.server.url}/airdrops`);
    expect(head.description).toBeTruthy();
    expect(head.ogTitle).toBe(head.title);
    expect(head.twitter).toBe("summary");
    const langs = head.hreflang.map((h) => h.lang);
    expect(langs).toContain("x-default");
    expect(langs).toContain("ar");
    expect(langs).toContain("ja");
    // The home is written in every content language, Dutch included (a content-only language).
    expect(langs).toContain("de");
    expect(langs).toContain("nl");
    expect(head.hreflang.find((h) => h.lang === "ja")?.href).toBe(`${run.server.url}/ja/airdrops`);
    expect(head.hreflang.every((h) => h.href?.startsWith(run.server.url))).toBe(true);
    const types = head.jsonLd.map((text) => (JSON.parse(text) as { "@type": string })["@type"]);
    expect(types).toEqual(expect.arrayContaining(["BreadcrumbList", "FAQPage"]));
  });

  test("list: filter by status, sort by a column, paginate with links", async () => {
    const page = await newPage(run.browser, { allowErrors: ANONYMOUS });
    await page.goto(`${run.server.url}/airdrops/list`);
    await expect(page.locator("h1").textContent()).resolves.toBe("All airdrops");
    const headers = await page.locator(".ad-table thead th").allTextContents();
    for (const name of ["Name", "Ticker", "Chain", "Status", "Est. value", "Current price", "Listing date"]) {
      expect(headers.some((h) => h.startsWith(name))).toBe(true);
    }
    for (const name of ["Airdrop start date", "Airdrop end date", "Claim time"]) {
      expect(headers.some((h) => h.startsWith(name))).toBe(true);
    }

    await page.locator('nav[aria-label="Status"] a', { hasText: "Closed" }).click();
    await page.waitForURL(/status=closed/);
    await page.locator('nav[aria-label="Status"] a[aria-current="true"]', { hasText: "Closed" }).waitFor();
    const statuses = await page.locator(".ad-table tbody .ad-status").allTextContents();
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(["Closed"]));

    await page.locator(".ad-table thead a", { hasText: "Est. value" }).click();
    await page.waitForURL(/sort=estValue&order=asc/);
    await page.locator(".ad-table thead a", { hasText: "Est. value" }).click();
    await page.waitForURL(/sort=estValue&order=desc/);
    await page.locator('th[aria-sort="descending"]').waitFor();
    await expect(page.locator(".ad-table tbody tr").first().getAttribute("data-slug")).resolves.toBe(
      "hyperliquid",
    );
    await expect(page.locator('th[aria-sort="descending"]').count()).resolves.toBe(1);
    expect(page.url()).toContain("status=closed");

    const trade = page.locator('.ad-table tbody tr[data-slug="hyperliquid"] a', { hasText: "Trade now" });
    await expect(trade.getAttribute("href")).resolves.toBe("/spot/HYPEUSDT");

    // Page two is a plain link crawlers can follow.
    await page.goto(`${run.server.url}/airdrops/list`);
    const next = page.locator(".ad-pagination a", { hasText: "2" }).first();
    await expect(next.getAttribute("href")).resolves.toBe("/airdrops/list?page=2");
  });

  test("detail: facts, countdown, project links, then the buy prompt into registration", async () => {
    const page = await newPage(run.browser, { allowErrors: ANONYMOUS });
    await page.goto(`${run.server.url}/airdrops/list?status=active`);
    const first = page.locator(".ad-table tbody tr").first();
    const slug = await first.getAttribute("data-slug");
    await first.locator(".ad-name").click();
    await page.waitForURL(new RegExp(`/airdrops/${slug}$`));
    await page.locator('[role="timer"]').waitFor();
    await expect(page.locator("h1").textContent()).resolves.toMatch(/\(.+\) airdrop$/);
    await expect(page.locator('[data-fact="prediction"] dd').textContent()).resolves.toMatch(/^\$/);
    await expect(page.locator('[role="timer"]').count()).resolves.toBe(1);
    // The key facts' days left and the countdown's days are one computation.
    const factDays = (await page.locator('[data-fact="daysLeft"] dd').textContent())?.match(/\d+/)?.[0];
    await expect(page.locator(".ad-countdown-unit strong").first().textContent()).resolves.toBe(
      factDays?.padStart(2, "0"),
    );
    const external = page.locator(".ad-links a").first();
    await expect(external.getAttribute("rel")).resolves.toContain("noopener");
    await expect(external.getAttribute("target")).resolves.toBe("_blank");
    const jsonLd = (await headTags(page)).jsonLd.map((t) => JSON.parse(t) as { "@type": string });
    expect(jsonLd.map((j) => j["@type"])).toEqual(expect.arrayContaining(["BreadcrumbList", "Article"]));

    // The countdown ticks after hydration.
    const before = await page.locator('[role="timer"]').textContent();
    await expect.poll(() => page.locator('[role="timer"]').textContent()).not.toBe(before);

    await expect(page.locator('.ad-buy a[data-step="step2"]').getAttribute("href")).resolves.toBe(
      "/account/identity",
    );
    const field = page.locator(".ad-buy .ad-signup input[name=account]");
    await field.fill("reader@example.com");
    await field.press("Enter");
    await page.waitForURL(/\/register\?account=reader%40example\.com/);
    await expect.poll(() => page.getByTestId("register-email").inputValue()).toBe("reader@example.com");
  });

  test("Claim opens at the claim time: after the campaign, never before", async () => {
    const page = await newPage(run.browser, { allowErrors: ANONYMOUS });
    // Monad's claims open today (its news says so); its campaign ended yesterday.
    await page.goto(`${run.server.url}/airdrops/monad`);
    await expect(page.locator('.ad-actions a[target="_blank"]').getAttribute("href")).resolves.toBe(
      "https://monad.xyz/",
    );
    // An active airdrop's claim time is still ahead.
    await page.goto(`${run.server.url}/airdrops/blum`);
    await expect(page.locator('.ad-actions [aria-disabled="true"]').count()).resolves.toBe(1);
    await expect(page.locator('.ad-actions a[target="_blank"]').count()).resolves.toBe(0);
  });

  test("content pages paint before fetching any script, then hydrate; a click made before hydration is replayed", async () => {
    const html = await (await fetch(`${run.server.url}/airdrops`)).text();
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).not.toMatch(/<script[^>]* type="module"/);
    // A form page (login) does not paint first: it keeps React Router's preloads. (The
    // trading pages paint first too, like the content pages.)
    expect(await (await fetch(`${run.server.url}/login`)).text()).toContain('<link rel="modulepreload"');
    expect(await (await fetch(`${run.server.url}/spot/BTCUSDT`)).text()).not.toContain(
      '<link rel="modulepreload"',
    );

    const page = await newPage(run.browser, { allowErrors: ANONYMOUS });
    await page.goto(`${run.server.url}/airdrops`, { waitUntil: "commit" });
    const faq = page.locator(".ad-faq .ad-faq-header").first();
    await faq.click();
    await expect.poll(() => faq.getAttribute("aria-expanded")).toBe("true");
    const timing = await page.evaluate(() => ({
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
      scripts: performance
        .getEntriesByType("resource")
        .filter((r) => r.name.endsWith(".js"))
        .map((r) => r.startTime),
    }));
    expect(timing.paint).not.toBeNull();
    expect(timing.scripts.length).toBeGreaterThan(0);
    expect(Math.min(...timing.scripts)).toBeGreaterThanOrEqual(timing.paint ?? Infinity);
  });

  test("an unknown airdrop answers a real 404 inside the shell", async () => {
    const page = await newPage(run.browser, { allowErrors: [...ANONYMOUS, "Failed to load resource"] });
    const response = await page.goto(`${run.server.url}/airdrops/no-such-airdrop`);
    expect(response?.status()).toBe(404);
    await expect(page.getByTestId("not-found").count()).resolves.toBe(1);
  });

  test("news: an item from the home page has its own page with Article JSON-LD; unknown news is 404", async () => {
    const page = await newPage(run.browser, { allowErrors: ANONYMOUS });
    await page.goto(`${run.server.url}/ja/airdrops`);
    const link = page.locator('.ad-news a[href*="/airdrops/news/"]').first();
    const href = (await link.getAttribute("href")) ?? "";
    expect(href).toMatch(/^\/ja\/airdrops\/news\/[a-z0-9-]+$/);
    await link.click();
    await page.waitForURL(`${run.server.url}${href}`);
    // Client-side navigation: the head follows once the new route has rendered.
    await expect.poll(async () => (await headTags(page)).canonical).toBe(`${run.server.url}${href}`);
    const head = await headTags(page);
    expect(head.hreflang.find((h) => h.lang === "x-default")?.href).toBe(`${run.server.url}${href.slice(3)}`);
    const ld = head.jsonLd.map((t) => JSON.parse(t) as Record<string, unknown>);
    const article = ld.find((d) => d["@type"] === "Article");
    expect(article).toMatchObject({ mainEntityOfPage: `${run.server.url}${href}` });
    for (const key of ["headline", "datePublished", "dateModified", "image"])
      expect(article?.[key]).toBeTruthy();
    expect(ld.some((d) => d["@type"] === "BreadcrumbList")).toBe(true);
    await expect(page.locator("h1").textContent()).resolves.toBe(article?.headline);
    const missing = await fetch(`${run.server.url}/airdrops/news/no-such-news`);
    expect(missing.status).toBe(404);
  });

  test("list cards show an item's translation wherever it has one", async () => {
    const content = path.join(repoRoot, "apps/server/content");
    const text = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
    const decoded = (html: string) =>
      html.replaceAll("&#x27;", "'").replaceAll("&amp;", "&").replaceAll("&quot;", '"');
    for (const { kind, field, pages } of [
      { kind: "airdrops", field: "description", pages: ["/airdrops"] },
      { kind: "tg-apps", field: "shortDescription", pages: ["/telegram-apps", "/telegram-apps?page=2"] },
    ]) {
      for (const lang of ["ar", "ja", "de", "zh-CN"]) {
        let html = "";
        for (const p of pages) html += decoded(await (await fetch(`${run.server.url}/${lang}${p}`)).text());
        let shown = 0;
        for (const slug of readdirSync(path.join(content, kind))) {
          const own = path.join(content, kind, slug, `${lang}.json`);
          if (!existsSync(own)) continue;
          const english = text(path.join(content, kind, slug, "en.json"))[field]?.slice(0, 40) ?? "";
          const translated = text(own)[field]?.slice(0, 40) ?? "";
          expect(html, `${lang} ${kind}/${slug}`).not.toContain(english);
          if (html.includes(translated)) shown++;
        }
        // The written items these pages list show their own language's text.
        expect(shown, `${lang} ${kind}`).toBeGreaterThan(0);
      }
    }
    // An item with no Arabic text shows its English marked as English; a written one is not marked.
    const arabic = await (await fetch(`${run.server.url}/ar/airdrops`)).text();
    expect(arabic).toMatch(/<p class="ad-card-text" lang="en" dir="auto">An onchain social network/);
    expect(arabic).toMatch(/<p class="ad-card-text" dir="auto">منصة تداول هجينة/);
    expect(arabic).toMatch(/<p dir="auto" lang="en">[^<]+<\/p><time/);
    const apps = await (await fetch(`${run.server.url}/ar/telegram-apps`)).text();
    expect(apps).toMatch(/<span class="tga-card-desc" lang="en" dir="auto">[A-Z]/);
    expect(apps).toMatch(/<span class="tga-card-desc" dir="auto">اجمع النقاط/);
    // The article rails of an app page: English titles marked, Arabic ones not.
    const app = await (await fetch(`${run.server.url}/ar/telegram-apps/blum`)).text();
    expect(app).toMatch(/<a (?=[^>]*lang="en")(?=[^>]*\/articles#)[^>]*>/);
    expect(app).toMatch(/<a (?![^>]*lang=)(?=[^>]*\/articles#)[^>]*>/);
  });

  test("a content-only language: offered on content pages, its shell leads to pages that exist", async () => {
    const page = await newPage(run.browser, { allowErrors: ANONYMOUS });
    await page.goto(`${run.server.url}/airdrops/list`);
    // The picker navigates from its change handler: choosing before hydration does nothing.
    await hydrated(page, "language-picker");
    await page.getByTestId("language-picker").first().selectOption("nl");
    await page.waitForURL(/\/nl\/airdrops\/list\?/);
    // The address changes first; the Dutch page renders once its data has arrived.
    await expect.poll(() => page.locator("html").getAttribute("lang")).toBe("nl");
    // Spot has no Dutch page: the header links the English one, which answers.
    const spot = page.locator('.shell-header a[href="/spot/BTCUSDT"]').first();
    await expect(spot.count()).resolves.toBe(1);
    await expect(
      page.locator('a[href^="/nl/spot"], a[href^="/nl/login"], a[href="/nl"]').count(),
    ).resolves.toBe(0);
    // A typed Dutch address of another page reaches the English one; the bare prefix, the Dutch airdrops.
    const typed = await page.goto(`${run.server.url}/nl/fee`);
    expect(typed?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/fee");
    await page.goto(`${run.server.url}/nl`);
    expect(new URL(page.url()).pathname).toBe("/nl/airdrops");
    // Pages other than content pages do not offer it: they have no Dutch page.
    await page.goto(`${run.server.url}/fee`);
    const options = await page
      .getByTestId("language-picker")
      .first()
      .locator("option")
      .evaluateAll((o) => o.map((e) => (e as HTMLOptionElement).value));
    expect(options).not.toContain("nl");
    expect(options).toContain("ar");
  });

  test("Arabic renders right to left with translated labels", async () => {
    const page = await newPage(run.browser, { locale: "ar", colorScheme: "dark", allowErrors: ANONYMOUS });
    await page.goto(`${run.server.url}/ar/airdrops/list`);
    await expect(page.locator("html").getAttribute("dir")).resolves.toBe("rtl");
    await expect(page.locator("h1").textContent()).resolves.toBe("كل الإنزالات الجوية");
    const canonical = (await headTags(page)).canonical;
    expect(canonical).toBe(`${run.server.url}/ar/airdrops/list`);
  });

  test("every content page's hreflang set is the languages its body is written in", async () => {
    const api = async <T>(path: string): Promise<T> =>
      ((await (await fetch(`${run.server.url}${path}`)).json()) as { data: T }).data;
    // Content languages a page is written in, from the API; null: interface strings only.
    async function written(path: string): Promise<string[] | null> {
      let m = /^\/airdrops\/news\/([a-z0-9-]+)$/.exec(path);
      if (m)
        return (await api<{ item: { contentLanguages: string[] } }>(`/v1/content/airdrops/news/${m[1]}`)).item
          .contentLanguages;
      m = /^\/airdrops\/([a-z0-9-]+)$/.exec(path);
      if (m && m[1] !== "list")
        return (await api<{ airdrop: { contentLanguages: string[] } }>(`/v1/content/airdrops/detail/${m[1]}`))
          .airdrop.contentLanguages;
      m = /^\/telegram-apps\/([a-z0-9-]+)\/articles$/.exec(path);
      if (m)
        return (await api<{ contentLanguages: string[] }>(`/v1/content/tg-apps/${m[1]}/articles`))
          .contentLanguages;
      m = /^\/telegram-apps\/([a-z0-9-]+)$/.exec(path);
      if (m)
        return (await api<{ app: { contentLanguages: string[] } }>(`/v1/content/tg-apps/${m[1]}`)).app
          .contentLanguages;
      if (path === "/airdrops")
        return (await api<{ contentLanguages: string[] }>("/v1/content/pages/airdrops-home"))
          .contentLanguages;
      if (path === "/telegram-apps")
        return (await api<{ contentLanguages: string[] }>("/v1/content/pages/tg-apps-home")).contentLanguages;
      return null;
    }
    const tags = [...VISIBLE_LOCALES, ...CONTENT_ONLY_LOCALES].filter(
      (l, i, all) => all.findIndex((o) => o.htmlLang === l.htmlLang) === i,
    );
    const paths: string[] = [];
    for (const section of ["airdrops", "telegram-apps"]) {
      const xml = await (await fetch(`${run.server.url}/sitemaps/${section}-en.xml`)).text();
      for (const m of xml.matchAll(/<loc>([^<]+)<\/loc>/g)) paths.push(new URL(m[1] ?? "").pathname);
    }
    expect(paths.length).toBeGreaterThan(100);
    const sets = new Set<string>();
    for (const path of paths) {
      const langs = await written(path);
      const expected = [
        ...tags.filter((l) => langs === null || langs.includes(l.content)).map((l) => l.htmlLang),
        "x-default",
      ];
      const html = await (await fetch(`${run.server.url}${path}`)).text();
      const got = [...html.matchAll(/<link rel="alternate" hrefLang="([^"]+)"/g)].map((m) => m[1]);
      expect({ path, hreflang: got.sort() }).toEqual({ path, hreflang: expected.sort() });
      sets.add(expected.join(","));
    }
    // The pages do not all share one set: the homes are written in more languages.
    expect(sets.size).toBeGreaterThan(1);
    // Shown in a language it is not written in: noindex, and the English body says so.
    // (Arbitrum is written in English only; Notcoin in every content language.)
    const ja = await (await fetch(`${run.server.url}/ja/airdrops/arbitrum`)).text();
    expect(ja).toMatch(/<meta name="robots" content="noindex/);
    expect(ja).toMatch(/<div lang="en" dir="ltr" class="ad-rich/);
  }, 180_000);

  test("sitemap index, a child sitemap, robots.txt and the feed parse", async () => {
    const index = await (await fetch(`${run.server.url}/sitemap.xml`)).text();
    const children = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? "");
    expect(children).toContain(`${run.server.url}/sitemaps/airdrops-en.xml`);
    expect(children).toContain(`${run.server.url}/sitemaps/airdrops-ar.xml`);

    const page = await newPage(run.browser, { allowErrors: ANONYMOUS });
    await page.goto(`${run.server.url}/airdrops`);
    const parsed = await page.evaluate(async (url) => {
      const text = await (await fetch(url)).text();
      const doc = new DOMParser().parseFromString(text, "application/xml");
      return {
        error: doc.querySelector("parsererror")?.textContent ?? null,
        locs: [...doc.getElementsByTagName("loc")].map((l) => l.textContent),
        lastmods: [...doc.getElementsByTagName("lastmod")].map((l) => l.textContent),
        alternates: doc.getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "link").length,
      };
    }, `${run.server.url}/sitemaps/airdrops-ja.xml`);
    expect(parsed.error).toBeNull();
    // Pages not written in Japanese are left out of the Japanese sitemap.
    expect(parsed.locs).not.toContain(`${run.server.url}/ja/airdrops/arbitrum`);
    expect(parsed.locs).toContain(`${run.server.url}/ja/airdrops/notcoin`);
    expect(parsed.locs).toContain(`${run.server.url}/ja/airdrops`);
    expect(parsed.locs).toContain(`${run.server.url}/ja/airdrops/list`);
    expect(parsed.lastmods.every((d) => d !== null && !Number.isNaN(Date.parse(d)))).toBe(true);
    expect(parsed.alternates).toBeGreaterThan(parsed.locs.length);

    const robots = await (await fetch(`${run.server.url}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${run.server.url}/sitemap.xml`);
    const feed = await fetch(`${run.server.url}/ja/airdrops/feed.xml`);
    expect(feed.headers.get("content-type")).toContain("application/atom+xml");
    expect(await feed.text()).toContain("<feed");

    // Every airdrop page announces the feed in its language and links to it.
    for (const path of ["/ja/airdrops", "/ja/airdrops/list", "/ja/airdrops/notcoin"]) {
      await page.goto(`${run.server.url}${path}`);
      const announced = page.locator('head link[rel="alternate"][type="application/atom+xml"]');
      await expect(announced.getAttribute("href")).resolves.toBe(`${run.server.url}/ja/airdrops/feed.xml`);
      await expect(announced.getAttribute("title")).resolves.toContain("Meridian");
      const link = page.getByTestId("airdrop-feed-link");
      await expect(link.getAttribute("href")).resolves.toBe("/ja/airdrops/feed.xml");
      await expect(link.textContent()).resolves.toContain("Atom");
    }
  });
});
