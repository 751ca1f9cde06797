/**
 * Hosts that are the product itself (docs/product.md §9: about 30 patterns). An entry is
 * an exact host name or `*.` + a domain for any subdomain of it. Configuration, not
 * code: deployments pass their own list.
 */
export const DEFAULT_PRODUCT_DOMAIN_PATTERNS: readonly string[] = [
  // Main domain and its fixed subdomains.
  "meridian.com",
  "www.meridian.com",
  "m.meridian.com",
  // Regional subdomains.
  "eu.meridian.com",
  "uk.meridian.com",
  "jp.meridian.com",
  "tr.meridian.com",
  "vn.meridian.com",
  "id.meridian.com",
  "br.meridian.com",
  "ar.meridian.com",
  "ph.meridian.com",
  "ng.meridian.com",
  "in.meridian.com",
  "uz.meridian.com",
  "ca.meridian.com",
  "au.meridian.com",
  // Country domains.
  "meridian.co.uk",
  "www.meridian.co.uk",
  "meridian.co.jp",
  "meridian.com.br",
  "meridian.com.tr",
  "meridian.com.au",
  "meridian.ca",
  "meridian.de",
  "meridian.fr",
  "meridian.es",
  "meridian.it",
  "meridian.pl",
  "meridian.vn",
  "meridian.id",
  "meridian.ph",
  "meridian.uz",
  "meridian.ae",
];

export interface ProductLinkOptions {
  productDomainPatterns?: readonly string[];
  /** The host the page is served from, e.g. `www.meridian.com` or `localhost:3300`. */
  currentHost?: string;
  /**
   * `relative` (default): `https://www.meridian.com/ja/fee?x#y` becomes `/ja/fee?x#y`.
   * `current-host`: the host is swapped for `currentHost` (for HTML leaving the site,
   * such as e-mails or embeds, where a relative link would point elsewhere).
   */
  mode?: "relative" | "current-host";
}

/** True when `hostname` matches one of the patterns (case-insensitive, port ignored). */
export function isProductHost(
  hostname: string,
  patterns: readonly string[] = DEFAULT_PRODUCT_DOMAIN_PATTERNS,
): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return patterns.some((raw) => {
    const pattern = raw.trim().toLowerCase();
    if (pattern.startsWith("*.")) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
    return host === pattern;
  });
}

/**
 * Rewrites an absolute (or protocol-relative) http(s) link to a product domain so it
 * stays on the current site; anything else comes back unchanged.
 */
export function rewriteProductLink(url: string, options: ProductLinkOptions = {}): string {
  const trimmed = url.trim();
  if (!/^(?:https?:)?\/\//i.test(trimmed)) return url;
  let parsed: URL;
  try {
    parsed = new URL(trimmed, "https://base.invalid");
  } catch {
    return url;
  }
  if (!isProductHost(parsed.hostname, options.productDomainPatterns)) return url;
  // `https://meridian.com//evil.com` must not become the protocol-relative `//evil.com`.
  const path = `${parsed.pathname.replace(/^\/+/, "/")}${parsed.search}${parsed.hash}`;
  if (options.mode === "current-host" && options.currentHost) {
    return `${parsed.protocol}//${options.currentHost}${path}`;
  }
  return path;
}
