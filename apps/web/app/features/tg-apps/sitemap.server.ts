import { TG_APPS_API, type TgSitemapEntry } from "@meridian/contracts";
import type { SitemapSection } from "../seo/sitemap.server.ts";
import { apiGet } from "./api.server.ts";
import { articlesPath, detailPath } from "./links.ts";

/** The list, every published app's detail page, and its articles page when it has articles. */
export const tgAppsSitemap: SitemapSection = {
  name: "telegram-apps",
  async entries(server) {
    const apps = await apiGet<TgSitemapEntry[]>(server, TG_APPS_API.sitemap);
    const newest = apps.reduce((max, a) => Math.max(max, a.updatedAt), 0);
    return [
      { path: "/telegram-apps", lastmod: newest },
      ...apps.flatMap((a) => [
        { path: detailPath(a.slug), lastmod: a.updatedAt, contentLanguages: a.contentLanguages },
        ...(a.hasArticles
          ? [{ path: articlesPath(a.slug), lastmod: a.updatedAt, contentLanguages: a.articleLanguages }]
          : []),
      ]),
    ];
  },
};
