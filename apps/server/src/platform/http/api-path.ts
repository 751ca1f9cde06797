/**
 * Whether a request URL (path and query) is an API call rather than a page or file: the
 * `/v1` API, or the Bitget-compatible bot API under `/api` (docs/bot-api.md). API answers
 * are JSON: the strict constant CSP, no micro-cache, no canonical-path redirect.
 */
export function isApiUrl(url: string): boolean {
  return (
    url.startsWith("/v1/") ||
    url === "/v1" ||
    url.startsWith("/v1?") ||
    url.startsWith("/api/") ||
    url === "/api" ||
    url.startsWith("/api?")
  );
}
