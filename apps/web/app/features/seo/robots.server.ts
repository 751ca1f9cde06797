/** robots.txt: everything public is crawlable; the API, admin and account pages are not. */
export function robotsTxt(origin: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /v1/",
    "Disallow: /admin/",
    "Disallow: /account/",
    "Disallow: /*/admin/",
    "Disallow: /*/account/",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}
