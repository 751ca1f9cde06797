import { sanitizeUrl } from "@meridian/sanitize";

/**
 * The `?redirect=` of the login page, when it is a path on this site: through the URL
 * allow-list, then only a single leading `/` (never `//host` or `/\host`, which browsers
 * read as another origin). Anything else is undefined and the caller's default applies.
 */
export function safeReturnPath(raw: string | null | undefined): string | undefined {
  if (typeof raw !== "string" || raw === "") return undefined;
  const clean = sanitizeUrl(raw, { warn: false });
  if (!clean.startsWith("/") || clean.startsWith("//") || clean.startsWith("/\\")) return undefined;
  return clean;
}
