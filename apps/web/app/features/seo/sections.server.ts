import { airdropsSitemap } from "../airdrops/sitemap.server.ts";
import { tgAppsSitemap } from "../tg-apps/sitemap.server.ts";
import type { SitemapSection } from "./sitemap.server.ts";

/** Every section with sitemaps, in index order. To add one: one line here. */
export const SITEMAP_SECTIONS: readonly SitemapSection[] = [airdropsSitemap, tgAppsSitemap];
