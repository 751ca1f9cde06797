/**
 * A generated corpus of hostile request paths for the redirect tests: every way we know
 * of to make a redirect producer emit a target on another origin (doubled slashes,
 * backslashes, their percent-encodings in both hex cases, dot segments, tabs and
 * newlines, schemes), behind every kind of locale prefix the locale redirects act on.
 * Test support only: nothing at runtime imports it.
 */

const HOST = "evil.example";

/** Heads that try to turn what follows the prefix into `//host`. */
const HEADS = [
  `//${HOST}`,
  `///${HOST}`,
  `/\\${HOST}`,
  `\\\\${HOST}`,
  `/\\/${HOST}`,
  `/%2F%2F${HOST}`,
  `/%2f%2f${HOST}`,
  `/%2F/${HOST}`,
  `/%5C${HOST}`,
  `/%5c%5c${HOST}`,
  `/%2F%5C${HOST}`,
  `/./${"/"}${HOST}`,
  `/.//${HOST}`,
  `/..//${HOST}`,
  `/%2e%2e//${HOST}`,
  `/%2E//${HOST}`,
  `//%65vil.example`,
  `/%09/${HOST}`,
  `/%0A/${HOST}`,
  `/\t/${HOST}`,
  `/\n/${HOST}`,
  `/ /${HOST}`,
  `//${HOST}/%2e%2e`,
  `//${HOST}?q=1`,
  `//${HOST}#x`,
  `/@${HOST}`,
  `https://${HOST}/`,
  `https:${HOST}`,
  `javascript:alert(1)`,
  `//${HOST}\\@meridian`,
];

/** The prefixes whose redirects are in scope: none, canonical, wrong-case, regional, hidden. */
export const HOSTILE_PREFIXES = [
  "",
  "/en",
  "/EN",
  "/En",
  "/fr",
  "/FR",
  "/fr-FR",
  "/zh-cn",
  "/ZH-CN",
  "/en-GB",
  "/en-gb",
  "/ar",
  "/AR",
  "/bg",
  "/BG",
];

/** Page bodies after the prefix: the bare head, and heads below pages that redirect. */
const PAGES = ["", "/spot", "/trade-margin", "/login"];

/** Every hostile path: prefix + page + head, each as written (may hold raw tabs and newlines). */
export function hostilePaths(): string[] {
  const out = new Set<string>();
  for (const prefix of HOSTILE_PREFIXES)
    for (const page of PAGES)
      for (const head of HEADS) {
        out.add(`${prefix}${page}${head}`);
        out.add(`${prefix}${page}${head}?locale=fr`);
      }
  return [...out];
}

/** Values for `?redirect=` of the login page. */
export function hostileRedirectParams(): string[] {
  return [...new Set([...HEADS, ...hostilePaths().filter((p) => p.startsWith("/"))])];
}

/** Whether a hostile path can travel in an HTTP request line as is (no raw whitespace or controls). */
export function isWireSafe(path: string): boolean {
  return /^[\u0021-\u007e]+$/.test(path);
}
