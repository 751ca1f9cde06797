/** Whether a request URL (path and query) is under the `/v1` API rather than a page or file. */
export function isApiUrl(url: string): boolean {
  return url.startsWith("/v1/") || url === "/v1" || url.startsWith("/v1?");
}
