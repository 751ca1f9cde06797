/**
 * Query parameters that are part of a page's identity (a list's tab and page number),
 * as the canonical and hreflang links carry them. Search terms and tracking values are
 * not: a route passes only what makes a distinct, indexable page.
 *
 * NOTE: browser-safe and dependency-free on purpose: the root layout imports it, and the
 * root's bundle is every page's first load.
 */
export type CanonicalParams = Record<string, string | number | undefined>;

/** `?tab=games&page=2` in the given key order, empty values left out; "" when none. */
export function canonicalQuery(params: CanonicalParams | undefined): string {
  if (!params) return "";
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** The deepest route's `seo.canonicalQuery` (see `buildSeo`), for the root's canonical and hreflang links. */
export function canonicalQueryOfMatches(matches: readonly { loaderData?: unknown }[]): string {
  for (let i = matches.length - 1; i >= 0; i--) {
    const seo = (matches[i]?.loaderData as { seo?: { canonicalQuery?: unknown } } | undefined)?.seo;
    if (typeof seo?.canonicalQuery === "string") return seo.canonicalQuery;
  }
  return "";
}

/** The written content languages the deepest page declares (`seo.contentLanguages`), or null. */
export function contentLanguagesOfMatches(matches: readonly { loaderData?: unknown }[]): string[] | null {
  for (let i = matches.length - 1; i >= 0; i--) {
    const seo = (matches[i]?.loaderData as { seo?: { contentLanguages?: unknown } } | undefined)?.seo;
    if (Array.isArray(seo?.contentLanguages)) return seo.contentLanguages as string[];
    if (seo) return null;
  }
  return null;
}
