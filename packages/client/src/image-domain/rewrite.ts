import { normalizeHost } from "./hosts.ts";

/**
 * Rewrites image hosts inside a JSON answer to the fast host (the "replace fast
 * image domain" client option, docs/product.md §7): every `//host` of an allowed host
 * in any string value, including HTML fragments, becomes `//fastHost`. Keys are
 * untouched and the input is not mutated. The client skips the domain-config call.
 */
export function rewriteImageUrls<T>(json: T, fastHost: string, allowedHosts: readonly string[]): T {
  const target = normalizeHost(fastHost);
  const hosts = [...new Set(allowedHosts.map(normalizeHost))].filter((h) => h !== "" && h !== target);
  if (target === "" || hosts.length === 0) return json;
  // A host boundary follows the name: `//img.a.com` must not match `//img.a.com.evil.net`.
  const pattern = new RegExp(`//(?:${hosts.map(escapeRegExp).join("|")})(?![A-Za-z0-9.-])`, "gi");
  const replacement = `//${target}`;
  return walk(json, (s) => s.replace(pattern, replacement)) as T;
}

function walk(value: unknown, rewrite: (s: string) => string): unknown {
  if (typeof value === "string") return rewrite(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, rewrite));
  if (value !== null && typeof value === "object" && isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, rewrite);
    return out;
  }
  return value;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
