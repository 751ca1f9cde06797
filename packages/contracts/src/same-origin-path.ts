/**
 * Redirect targets the site produces (locale redirects, the login page's `?redirect=`,
 * canonical-path redirects) must stay on this origin whatever the request held.
 *
 * A browser reads a `Location` (or a navigation target) that starts with `//` or `/\` as
 * another host, drops tabs and newlines anywhere in it, and some proxies and frameworks
 * decode `%2F` / `%5C` before acting on it. So a same-origin path starts with exactly one
 * `/`, followed by neither a slash, a backslash nor their encodings, and holds no control
 * character.
 */

// A leading run that a browser or a decoding hop could read as a second slash.
const LEADING_SLASHES = /^(?:[/\\]|%2f|%5c)+/i;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** Whether `target` is a path on this origin in the sense above. */
export function isSameOriginPath(target: string): boolean {
  return sameOriginPath(target) === target && target.startsWith("/");
}

/**
 * `path` made a same-origin path: control characters percent-encoded, any leading run of
 * slashes and backslashes (raw or encoded) collapsed into one `/`. Query and hash kept.
 * A path that is not one (a scheme, `host/...`) becomes `/` followed by it, a path.
 */
export function sameOriginPath(path: string): string {
  const clean = path.replace(
    CONTROL,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
  );
  return `/${clean.replace(LEADING_SLASHES, "")}`;
}
