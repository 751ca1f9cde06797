import {
  CONTENT_PAGE_PATH,
  CONTENT_PAGES,
  type ContentPageKey,
  contentPageParamsSchema,
  contentPageQuerySchema,
} from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import type { Seed } from "../../platform/db/seed.ts";
import { route } from "../../platform/http/route.ts";
import type { Platform } from "../../platform/platform.ts";
import { indexAllAirdrops, seedAirdropLibrary } from "../airdrops/index.ts";
import { indexAllApps, seedTgApps } from "../tg-apps/index.ts";
import { loadContent } from "./files.ts";
import { readPage, savePageText } from "./pages.ts";
import { contentTexts } from "./texts.ts";

/**
 * The demo content seeder (docs/content.md): reads and validates every file under
 * `apps/server/content/`, then writes airdrops, news, apps, articles and the content
 * pages in every language they are written in. Existing rows are left alone.
 */
export const contentSeed: Seed = {
  name: "content",
  version: 1,
  async seed(db, { log }) {
    const lib = loadContent();
    const now = Date.now();
    const homeFaq = Object.fromEntries(
      Object.entries(lib.pages["airdrops-home"]).map(([lang, text]) => [lang, text?.faq ?? []]),
    );
    await db.transaction(async (tx) => {
      await seedAirdropLibrary(tx, contentTexts, { airdrops: lib.airdrops, news: lib.news, homeFaq }, now);
      for (const page of Object.keys(CONTENT_PAGES) as ContentPageKey[])
        for (const [lang, text] of Object.entries(lib.pages[page]))
          if (text) await savePageText(tx, page, lang, text, now);
    });
    await seedTgApps(db, { apps: lib.apps, articles: lib.articles }, now);
    log.info(
      {
        files: lib.files,
        airdrops: lib.airdrops.length,
        apps: lib.apps.length,
        articles: lib.articles.length,
      },
      "demo content seeded",
    );
  },
};

/**
 * Fills the full-text index from the stored airdrops and apps once (databases seeded
 * before the index existed); writes keep it current afterwards.
 */
export const searchIndexSeed: Seed = {
  name: "content-search",
  version: 1,
  async seed(db, { log }) {
    const counts = await db.transaction(async (tx) => ({
      airdrops: await indexAllAirdrops(tx, contentTexts),
      apps: await indexAllApps(tx),
    }));
    log.info(counts, "content search index built");
  },
};

/** `GET /v1/content/pages/:page`: the written texts of a content page. */
export function contentRoutes(app: FastifyInstance, platform: Platform): void {
  route(app, {
    method: "GET",
    url: CONTENT_PAGE_PATH,
    params: contentPageParamsSchema,
    query: contentPageQuerySchema,
    handler: ({ params, query }) => readPage(platform.db, params.page, query.locale),
  });
}
export { ContentError, type ContentLibrary, loadContent, repeatedParagraph } from "./files.ts";
export { type ContentTexts, contentTexts, type StoredText } from "./texts.ts";
