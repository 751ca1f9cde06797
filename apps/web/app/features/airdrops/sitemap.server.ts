import { AIRDROPS_API, type AirdropIndexResult } from "@meridian/contracts";
import type { SitemapSection } from "../seo/sitemap.server.ts";
import { apiGet } from "./api.server.ts";

/** Airdrop home, the list, every published detail page (closed ones included) and news item. */
export const airdropsSitemap: SitemapSection = {
  name: "airdrops",
  async entries(server, locale) {
    const { items, news } = await apiGet<AirdropIndexResult>(
      server,
      `${AIRDROPS_API.index}?locale=${locale}`,
    );
    const newest = [...items, ...news].reduce((max, a) => Math.max(max, a.updatedAt), 0);
    return [
      { path: "/airdrops", lastmod: newest },
      { path: "/airdrops/list", lastmod: newest },
      ...items.map((a) => ({ path: `/airdrops/${a.slug}`, lastmod: a.updatedAt })),
      ...news.map((n) => ({ path: `/airdrops/news/${n.slug}`, lastmod: n.updatedAt })),
    ];
  },
};
