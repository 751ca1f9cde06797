import { compact, deepDecode, stripControls } from "./decode.ts";

/** The product's app deep-link schemes accepted in links (docs/product.md §5). */
export const DEFAULT_APP_SCHEMES: readonly string[] = ["meridian:"];

export interface UrlPolicy {
  /** The page origin, for same-origin `blob:` URLs; defaults to `location.origin` in a browser. */
  origin?: string;
  /** App deep-link schemes, with the colon (`meridian:`). */
  appSchemes?: readonly string[];
  /** Called with a message for every rejected URL; defaults to `console.warn`, `false` silences. */
  warn?: ((message: string) => void) | false;
}

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const RASTER_DATA_URL = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/]*={0,2}$/i;
const RELATIVE_BASE = "https://relative.invalid/a/b/";

/**
 * Returns `url` if it is on the allow-list of docs/product.md §5, otherwise "" (with a
 * console warning): a lone `#`; `http:`, `https:`, `ftp:`, `mailto:`, `tel:`;
 * same-origin `blob:`; base64 PNG/JPEG/GIF/WebP data URLs; `./`, `../` and `/`
 * relative paths (never `//host` or `/\host`); the app deep-link schemes. Any
 * string that hides a `javascript:` scheme, after decoding entities and percent
 * escapes and dropping controls and whitespace in any case, is "". Absolute URLs
 * come back serialised by the WHATWG URL parser.
 */
export function sanitizeUrl(url: string | null | undefined, policy: UrlPolicy = {}): string {
  if (typeof url !== "string") return "";
  const cleaned = stripControls(url);
  if (cleaned === "") return "";

  const decoded = deepDecode(cleaned);
  if (compact(decoded).includes("javascript:")) return reject(url, policy, "javascript: scheme");

  const verdict = judge(cleaned, policy);
  if (!verdict.ok) return reject(url, policy, verdict.reason);
  // The decoded form must pass too: `/&#47;evil.com` and `/%5Cevil.com` read as other hosts once decoded.
  const cleanedDecoded = stripControls(decoded);
  if (cleanedDecoded !== cleaned) {
    const second = judge(cleanedDecoded, policy);
    if (!second.ok) return reject(url, policy, `${second.reason} (after decoding)`);
  }
  return verdict.value;
}

type Verdict = { ok: true; value: string } | { ok: false; reason: string };

function judge(candidate: string, policy: UrlPolicy): Verdict {
  if (candidate === "#") return { ok: true, value: "#" };
  const scheme = SCHEME.exec(candidate)?.[1]?.toLowerCase();
  if (scheme === undefined) return judgeRelative(candidate);

  const parsed = parse(candidate);
  if (!parsed) return { ok: false, reason: "unparsable URL" };
  switch (scheme) {
    case "http":
    case "https":
    case "ftp":
      return parsed.protocol === `${scheme}:` && parsed.hostname !== ""
        ? { ok: true, value: parsed.href }
        : { ok: false, reason: "no host" };
    case "mailto":
    case "tel":
      return { ok: true, value: parsed.href };
    case "blob": {
      const origin = policy.origin ?? pageOrigin();
      return origin !== undefined && parsed.origin !== "null" && parsed.origin === origin
        ? { ok: true, value: parsed.href }
        : { ok: false, reason: "blob: URL of another origin" };
    }
    case "data":
      return RASTER_DATA_URL.test(candidate)
        ? { ok: true, value: candidate }
        : { ok: false, reason: "data: URL that is not a base64 raster image" };
    default: {
      const schemes = (policy.appSchemes ?? DEFAULT_APP_SCHEMES).map((s) => s.toLowerCase());
      return schemes.includes(`${scheme}:`)
        ? { ok: true, value: candidate }
        : { ok: false, reason: "scheme not allowed" };
    }
  }
}

function judgeRelative(candidate: string): Verdict {
  const isPathRelative = candidate.startsWith("./") || candidate.startsWith("../");
  const isRootRelative = candidate.startsWith("/") && candidate[1] !== "/" && candidate[1] !== "\\";
  if (!isPathRelative && !isRootRelative) return { ok: false, reason: "not a ./, ../ or / relative URL" };
  // Belt and braces: however the parser reads it, a relative URL must stay on the page's origin.
  const resolved = parse(candidate, RELATIVE_BASE);
  if (!resolved || resolved.origin !== new URL(RELATIVE_BASE).origin) {
    return { ok: false, reason: "relative URL leaves the origin" };
  }
  return { ok: true, value: candidate };
}

function parse(input: string, base?: string): URL | undefined {
  try {
    return new URL(input, base);
  } catch {
    return undefined;
  }
}

function pageOrigin(): string | undefined {
  const location = (globalThis as { location?: { origin?: string } }).location;
  return location?.origin && location.origin !== "null" ? location.origin : undefined;
}

function reject(url: string, policy: UrlPolicy, reason: string): "" {
  const warn = policy.warn === undefined ? (m: string) => console.warn(m) : policy.warn;
  if (warn) warn(`[sanitize] blocked URL (${reason}): ${JSON.stringify(url.slice(0, 200))}`);
  return "";
}
