import { data } from "react-router";
import { serverOf } from "../features/airdrops/api.server.ts";
import { parseSitemapFileName, sitemapXml, xmlResponse } from "../features/seo/sitemap.server.ts";
import { SITEMAP_SECTIONS } from "../sitemap-sections.server.ts";
import type { Route } from "./+types/sitemap-file";

/** `/sitemaps/<section>-<locale>.xml`: that section's pages in that locale, with hreflang alternates. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const found = parseSitemapFileName(SITEMAP_SECTIONS, params.file);
  if (!found) throw data("Not found", { status: 404 });
  const server = serverOf(context);
  return xmlResponse(await sitemapXml(server, server.origin, found.section, found.locale));
}
