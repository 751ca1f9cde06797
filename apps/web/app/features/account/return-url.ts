import { sanitizeUrl } from "@meridian/sanitize";

function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * The `?redirect=` of the login page, when it is a path on this site: through the URL
 * allow-list, then only a path that starts with exactly one `/` and holds no backslash,
 * encoded slash or backslash, or control character (browsers read `//host` and `/\host`
 * as another origin, and drop tabs and newlines). Repeated slashes are collapsed, so the
 * path cannot become `//host` later (an unprefixed locale redirect strips its first
 * segment). Anything else is undefined and the caller's default applies.
 */
export function safeReturnPath(raw: string | null | undefined): string | undefined {
  if (typeof raw !== "string" || raw === "" || raw.length > 2_048) return undefined;
  const clean = sanitizeUrl(raw, { warn: false });
  const cut = clean.search(/[?#]/);
  const path = cut < 0 ? clean : clean.slice(0, cut);
  if (!path.startsWith("/") || /\\|%2f|%5c/i.test(path) || hasControl(clean)) return undefined;
  const collapsed = path.replace(/\/{2,}/g, "/");
  return `${collapsed}${cut < 0 ? "" : clean.slice(cut)}`;
}
