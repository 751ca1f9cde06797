import { airdropsSitemap } from "./features/airdrops/sitemap.server.ts";
import type { SitemapSection } from "./features/seo/sitemap.server.ts";
import { tgAppsSitemap } from "./features/tg-apps/sitemap.server.ts";

/** Every section with sitemaps, in index order. To add one: one line here. */
export const SITEMAP_SECTIONS: readonly SitemapSection[] = [airdropsSitemap, tgAppsSitemap];
