import { AIRDROPS_API, type AirdropIndexResult } from "@meridian/contracts";
import type { SitemapSection } from "../seo/sitemap.server.ts";
import { apiGet } from "./api.server.ts";

/** Airdrop home, the list and every published detail page (closed ones included). */
export const airdropsSitemap: SitemapSection = {
  name: "airdrops",
  async entries(server, locale) {
    const { items } = await apiGet<AirdropIndexResult>(server, `${AIRDROPS_API.index}?locale=${locale}`);
    const newest = items.reduce((max, a) => Math.max(max, a.updatedAt), 0);
    return [
      { path: "/airdrops", lastmod: newest },
      { path: "/airdrops/list", lastmod: newest },
      ...items.map((a) => ({ path: `/airdrops/${a.slug}`, lastmod: a.updatedAt })),
    ];
  },
};
