/**
 * Every link resolves in every language (docs/content.md, "Languages"): the pages of every
 * sitemap and the home page of every language in the pickers are read as the server
 * renders them, and every internal link on them (anchors, canonical and hreflang
 * alternates) must answer without a 4xx or 5xx, redirects followed. Plain HTTP over
 * loopback with a few requests in flight, no browser: the links are all in the server's
 * HTML. Each URL is checked once, with its language prefix, so a link that only breaks
 * in one language (`/nl/spot/BTCUSDT`) is caught there.
 */
import { CONTENT_ONLY_LOCALES, localizePath, VISIBLE_LOCALES } from "@meridian/contracts/locales";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningServer, startServer } from "./harness.ts";

/** Requests in flight: the server renders on one core, the other is the machine's. */
const CONCURRENCY = 6;

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

const decode = (value: string) =>
  value.replaceAll("&amp;", "&").replaceAll("&#x27;", "'").replaceAll("&quot;", '"');

/** The targets of every `<a href>` and every canonical or alternate `<link>` of a page. */
function linksOf(html: string): string[] {
  const out: string[] = [];
  for (const tag of html.matchAll(/<(a|link)\b[^>]*>/gi)) {
    const element = tag[0];
    if (tag[1]?.toLowerCase() === "link" && !/\srel="(canonical|alternate)"/i.test(element)) continue;
    const href = /\shref="([^"]*)"/i.exec(element)?.[1];
    if (href !== undefined) out.push(decode(href));
  }
  return out;
}

async function pool<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const item = items[next++];
        if (item !== undefined) await work(item);
      }
    }),
  );
}

async function text(url: string): Promise<string> {
  const res = await fetch(url, { headers: { "accept-encoding": "identity" } });
  expect(res.status, url).toBe(200);
  return res.text();
}

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => decode(m[1] ?? ""));

test("every link from the sitemaps and every home page answers without an error", async () => {
  const origin = server.url;
  // The sitemaps name the configured public address; the pages are read from this server.
  const local = (url: string) => {
    const parsed = new URL(url);
    return `${origin}${parsed.pathname}${parsed.search}`;
  };
  const sitemaps = locs(await text(`${origin}/sitemap.xml`)).map(local);
  const pages = new Set<string>();
  await pool(sitemaps, async (sitemap) => {
    for (const url of locs(await text(sitemap))) pages.add(local(url));
  });
  const sitemapPages = pages.size;
  // A content-only language's home is its prefix alone, as a visitor would type it.
  for (const locale of VISIBLE_LOCALES) pages.add(`${origin}${localizePath(locale.code, "/")}`);
  for (const locale of CONTENT_ONLY_LOCALES) pages.add(`${origin}/${locale.code}`);

  /** Status by URL, and the page that first linked there. */
  const checked = new Map<string, { status: number; from: string }>();
  const links: string[] = [];
  await pool([...pages], async (page) => {
    const res = await fetch(page, { headers: { accept: "text/html", "accept-encoding": "identity" } });
    checked.set(page, { status: res.status, from: "(start)" });
    if (res.status !== 200) {
      await res.body?.cancel();
      return;
    }
    for (const href of linksOf(await res.text())) {
      let link: URL;
      try {
        link = new URL(href, page);
      } catch {
        continue;
      }
      if (link.origin !== origin) continue;
      link.hash = "";
      if (checked.has(link.href) || pages.has(link.href)) continue;
      checked.set(link.href, { status: 0, from: page.slice(origin.length) });
      links.push(link.href);
    }
  });
  // A link is only checked: HEAD runs the loaders but renders nothing.
  await pool(links, async (url) => {
    const res = await fetch(url, {
      method: "HEAD",
      redirect: "follow",
      headers: { accept: "text/html", "accept-encoding": "identity" },
    });
    const entry = checked.get(url);
    if (entry) entry.status = res.status;
  });

  const failed = [...checked.entries()]
    .filter(([, c]) => c.status >= 400 || c.status === 0)
    .map(([url, c]) => `${c.status} ${url.slice(origin.length)} (linked from ${c.from})`);
  expect(failed).toEqual([]);
  // The crawl covered every language's sitemap, the content-only ones included.
  expect(sitemaps.length).toBeGreaterThanOrEqual(VISIBLE_LOCALES.length + CONTENT_ONLY_LOCALES.length);
  expect(sitemapPages).toBeGreaterThan(500);
  const urls = [...checked.keys()];
  for (const { code } of CONTENT_ONLY_LOCALES) {
    expect(urls.some((url) => url.startsWith(`${origin}/${code}/airdrops/`))).toBe(true);
  }
  expect(checked.size).toBeGreaterThan(3000);
}, 900_000);
