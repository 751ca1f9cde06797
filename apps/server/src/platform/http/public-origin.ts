/**
 * The origin pages use for absolute links (canonical, hreflang, Open Graph, sitemaps).
 *
 * The site answers under several regional domains (PUBLIC_DOMAINS), so the origin comes
 * from the request's Host. But Host is client-controlled: a request naming a host outside
 * the configured list would otherwise make cached pages and sitemaps advertise an
 * attacker's domain (host-header poisoning). Unknown hosts therefore fall back to the
 * first configured domain. With no list configured (a local or demo run) the request's
 * own host is used as it is.
 */
export function publicOrigin(protocol: string, host: string, publicDomains: readonly string[]): string {
  const first = publicDomains[0];
  if (first === undefined) return `${protocol}://${host}`;
  const wanted = host.toLowerCase();
  const hostname = wanted.replace(/:\d+$/, "");
  const allowed = publicDomains.some((domain) => {
    const d = domain.toLowerCase();
    return d === wanted || d === hostname;
  });
  return `${protocol}://${allowed ? host : first}`;
}
