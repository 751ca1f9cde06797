/**
 * No dead links on the content pages (docs/product.md §2): every airdrop and apps page
 * (homes, lists, details, news and articles) in every visible locale is fetched as the
 * server renders it, and every link on it must answer something other than 404 (or a
 * server error). Plain HTTP, no browser: the links are all in the server's HTML.
 *
 * Kept fast by deduplication: each content page is read once per locale; a link that is
 * not a content page (a trading pair, login with its return address, ...) or a content
 * page with a query (a list's filter and sort variants) is checked once, under the first
 * locale that links to it, since the locale prefix routes every page alike (shell.e2e).
 */
import { localizePath, parseLocalePath, VISIBLE_LOCALES } from "@meridian/contracts/locales";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningServer, startServer } from "./harness.ts";

const CONCURRENCY = 6;
/** Paths (without a locale prefix) whose pages are content: crawled for their links. */
const CONTENT = /^\/(airdrops|telegram-apps)(\/|$)/;

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** Every `href` of an `<a>` in the HTML, entities in the value decoded. */
function anchors(html: string): string[] {
  const out: string[] = [];
  for (const tag of html.matchAll(/<a\b[^>]*>/gi)) {
    const href = /\shref="([^"]*)"/i.exec(tag[0])?.[1];
    if (href !== undefined) out.push(href.replaceAll("&amp;", "&").replaceAll("&#x27;", "'"));
  }
  return out;
}

interface Checked {
  status: number;
  /** The page that first linked here. */
  from: string;
}

async function pool<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
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

describe("content pages", () => {
  test("no link on any airdrop or apps page, in any locale, is a 404", async () => {
    const origin = server.url;
    /** Status by content page URL, or by locale-free path + query for other links. */
    const checked = new Map<string, Checked>();
    let queue: { url: string; key: string; crawl: boolean; from: string }[] = [];
    const visit = (url: URL, from: string) => {
      const rest = parseLocalePath(url.pathname).rest;
      const crawl = CONTENT.test(rest) && url.search === "";
      const key = crawl ? url.pathname : `${rest}${url.search}`;
      if (checked.has(key)) return;
      checked.set(key, { status: 0, from });
      queue.push({ url: url.href, key, crawl, from });
    };
    for (const locale of VISIBLE_LOCALES) {
      for (const path of ["/airdrops", "/airdrops/list", "/telegram-apps"]) {
        visit(new URL(localizePath(locale.code, path), origin), "(start)");
      }
    }
    let pagesRead = 0;
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      await pool(batch, async ({ url, key, crawl }) => {
        // A link is only checked: HEAD runs the loaders but renders nothing. No compression
        // either: the test's time goes to rendering, not to squeezing HTML it reads once.
        const res = await fetch(url, {
          method: crawl ? "GET" : "HEAD",
          redirect: "follow",
          headers: { accept: "text/html", "accept-encoding": "identity" },
        });
        const entry = checked.get(key);
        if (entry) entry.status = res.status;
        if (!crawl || res.status !== 200) {
          await res.body?.cancel();
          return;
        }
        pagesRead++;
        for (const href of anchors(await res.text())) {
          let link: URL;
          try {
            link = new URL(href, url);
          } catch {
            continue;
          }
          if (link.origin !== origin) continue;
          link.hash = "";
          visit(link, url.slice(origin.length));
        }
      });
    }
    const dead = [...checked.entries()]
      .filter(([, c]) => c.status === 404 || c.status >= 500)
      .map(([key, c]) => `${c.status} ${key} (linked from ${c.from})`);
    expect(dead).toEqual([]);
    // the crawl reached every kind of content page in every locale, and the tokens' pairs
    expect(pagesRead).toBeGreaterThan(VISIBLE_LOCALES.length * 100);
    const spot = [...checked.keys()].filter((key) => /^\/spot\/[A-Z0-9]+USDT$/.test(key));
    expect(spot.length).toBeGreaterThan(20);
  }, 900_000);
});
