import { serverOf } from "../features/airdrops/api.server.ts";
import { sitemapIndexXml, xmlResponse } from "../features/seo/sitemap.server.ts";
import { SITEMAP_SECTIONS } from "../sitemap-sections.server.ts";
import type { Route } from "./+types/sitemap-index";

/** `/sitemap.xml`: one child sitemap per section and locale. */
export async function loader({ context }: Route.LoaderArgs) {
  const server = serverOf(context);
  return xmlResponse(await sitemapIndexXml(server, server.origin, SITEMAP_SECTIONS));
}
