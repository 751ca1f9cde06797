import { AIRDROPS_API, type AirdropIndexResult, type ContentPageResult } from "@meridian/contracts";
import type { SitemapSection } from "../seo/sitemap.server.ts";
import { apiGet } from "./api.server.ts";

/** Airdrop home, the list, every published detail page (closed ones included) and news item. */
export const airdropsSitemap: SitemapSection = {
  name: "airdrops",
  async entries(server, locale) {
    const [{ items, news }, home] = await Promise.all([
      apiGet<AirdropIndexResult>(server, `${AIRDROPS_API.index}?locale=${locale}`),
      apiGet<ContentPageResult>(server, "/v1/content/pages/airdrops-home"),
    ]);
    const newest = [...items, ...news].reduce((max, a) => Math.max(max, a.updatedAt), 0);
    return [
      { path: "/airdrops", lastmod: newest, contentLanguages: home.contentLanguages },
      { path: "/airdrops/list", lastmod: newest },
      ...items.map((a) => ({
        path: `/airdrops/${a.slug}`,
        lastmod: a.updatedAt,
        contentLanguages: a.contentLanguages,
      })),
      ...news.map((n) => ({
        path: `/airdrops/news/${n.slug}`,
        lastmod: n.updatedAt,
        contentLanguages: n.contentLanguages,
      })),
    ];
  },
};
