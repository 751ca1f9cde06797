import { localizePath } from "@meridian/contracts";
import type { ServerContext } from "../../server-context.ts";
import { alternateUrls, CONTENT_HREFLANG_LOCALES, writtenIn } from "./seo.ts";
import { isoDate, xmlEscape } from "./xml.ts";

/** One URL of a section's sitemap; `path` is without the language prefix. */
export interface SitemapEntry {
  path: string;
  /** Epoch ms of the last real content change. */
  lastmod: number;
  /**
   * Content languages the page is written in; undefined for pages of interface strings
   * only. A locale's sitemap lists the page only when it is written in that locale's
   * content language, and its alternates name only those locales.
   */
  contentLanguages?: readonly string[];
}

/**
 * A part of the site with its own sitemap per locale, listed in SITEMAP_SECTIONS
 * (app/sitemap-sections.server.ts). `/sitemap.xml` lists `/sitemaps/<name>-<locale>.xml` for
 * every section and visible locale.
 */
export interface SitemapSection {
  name: string;
  /** The section's pages in one locale, with the time each last changed. */
  entries(server: ServerContext, locale: string): Promise<SitemapEntry[]>;
}

export const sitemapFileName = (section: string, locale: string) => `${section}-${locale}.xml`;

/** Reads `airdrops-zh-CN.xml` back into its section and locale, or undefined. */
export function parseSitemapFileName(
  sections: readonly SitemapSection[],
  file: string,
): { section: SitemapSection; locale: string } | undefined {
  // Section names hold hyphens too (`telegram-apps-en.xml`): match each name as a prefix.
  if (!file.endsWith(".xml")) return undefined;
  for (const section of sections) {
    if (!file.startsWith(`${section.name}-`)) continue;
    const code = file.slice(section.name.length + 1, -".xml".length);
    const locale = CONTENT_HREFLANG_LOCALES.find((l) => l.code === code);
    if (locale) return { section, locale: locale.code };
  }
  return undefined;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The sitemap index: one child per section and visible locale, lastmod the newest entry. */
export async function sitemapIndexXml(
  server: ServerContext,
  origin: string,
  sections: readonly SitemapSection[],
): Promise<string> {
  const parts: string[] = [];
  for (const section of sections) {
    const entries = await section.entries(server, "en");
    const lastmod = entries.reduce((max, e) => Math.max(max, e.lastmod), 0);
    for (const l of CONTENT_HREFLANG_LOCALES) {
      parts.push(
        `<sitemap><loc>${xmlEscape(`${origin}/sitemaps/${sitemapFileName(section.name, l.code)}`)}</loc>${
          lastmod ? `<lastmod>${isoDate(lastmod)}</lastmod>` : ""
        }</sitemap>`,
      );
    }
  }
  return `${XML_HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${parts.join("\n")}\n</sitemapindex>\n`;
}

/** One section's URLs in one locale, each with its hreflang alternates. */
export async function sitemapXml(
  server: ServerContext,
  origin: string,
  section: SitemapSection,
  locale: string,
): Promise<string> {
  const entries = (await section.entries(server, locale)).filter((e) =>
    writtenIn(locale, e.contentLanguages),
  );
  const urls = entries.map((e) => {
    const alternates = alternateUrls(origin, e.path, e.contentLanguages)
      .map((a) => `<xhtml:link rel="alternate" hreflang="${a.hreflang}" href="${xmlEscape(a.href)}"/>`)
      .join("");
    return `<url><loc>${xmlEscape(`${origin}${localizePath(locale, e.path)}`)}</loc><lastmod>${isoDate(e.lastmod)}</lastmod>${alternates}</url>`;
  });
  return `${XML_HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
}

export function xmlResponse(body: string, contentType = "application/xml; charset=utf-8"): Response {
  return new Response(body, {
    headers: { "content-type": contentType, "cache-control": "public, max-age=600" },
  });
}
