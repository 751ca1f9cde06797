/**
 * The site's own hosts and origins, for everything that writes or checks a host.
 *
 * The site answers under several regional domains (PUBLIC_DOMAINS), so the origin pages
 * use for absolute links (canonical, hreflang, Open Graph, sitemaps) and the CSP's socket
 * source come from the request's Host. But Host is client-controlled: a request naming a
 * host outside the configured list would otherwise make cached pages, sitemaps or a
 * policy advertise an attacker's domain (host-header poisoning). Unknown hosts therefore
 * fall back to the first configured domain. With no list configured (a local or demo run
 * outside production) the request's own host is used as it is; production always has a
 * list (config.ts defaults it to the local listen address).
 */
export function publicHost(host: string, publicDomains: readonly string[]): string {
  const first = publicDomains[0];
  if (first === undefined) return host;
  return isListedHost(host, publicDomains) ? host : first;
}

export function publicOrigin(protocol: string, host: string, publicDomains: readonly string[]): string {
  return `${protocol}://${publicHost(host, publicDomains)}`;
}

/** Host (with or without its port) is one of `publicDomains`, case-insensitively. */
export function isListedHost(host: string, publicDomains: readonly string[]): boolean {
  const wanted = host.toLowerCase();
  const hostname = wanted.replace(/:\d+$/, "");
  return publicDomains.some((domain) => {
    const d = domain.toLowerCase();
    return d === wanted || d === hostname;
  });
}

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

export interface SiteOriginPolicy {
  publicDomains: readonly string[];
  isProduction: boolean;
}

/**
 * An `Origin` header names one of the site's own origins: a configured domain (https in
 * production, except on a loopback address), or, with no list configured, the very host
 * the request was sent to. `null`, other schemes and anything unparsable are not.
 */
export function isSiteOrigin(
  origin: string,
  requestHost: string | undefined,
  policy: SiteOriginPolicy,
): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return false;
  // An Origin header is exactly scheme://host[:port]: a path, credentials or odd casing is not a browser's.
  if (url.origin !== origin) return false;
  if (policy.publicDomains.length === 0) {
    return requestHost !== undefined && url.host === requestHost.toLowerCase();
  }
  if (!isListedHost(url.host, policy.publicDomains)) return false;
  return url.protocol === "https:" || !policy.isProduction || LOOPBACK.test(url.hostname);
}
