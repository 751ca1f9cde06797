import type { Config, DOMPurify } from "dompurify";
import { compact, deepDecode } from "./decode.ts";
import { type ProductLinkOptions, rewriteProductLink } from "./product-link.ts";
import { getPurifier } from "./purify.ts";
import { DEFAULT_APP_SCHEMES, sanitizeUrl, type UrlPolicy } from "./url.ts";

/** Tags kept in article HTML; everything else is unwrapped (text kept) or, for the dangerous ones, dropped whole. */
export const ALLOWED_TAGS: readonly string[] = words(
  "h1 h2 h3 h4 h5 h6 p br hr div span section article ul ol li dl dt dd a img figure figcaption " +
    "table caption colgroup col thead tbody tfoot tr th td pre code kbd samp blockquote q cite abbr time " +
    "strong b em i u s del ins mark small sub sup",
);

/**
 * Attributes kept. `href` and `src` are the only URL attributes and both go through
 * `sanitizeUrl`; `style` is kept but blanked when it could run script.
 */
export const ALLOWED_ATTRIBUTES: readonly string[] = words(
  "href src alt title width height loading class id lang dir style target rel " +
    "colspan rowspan scope span start reversed datetime",
);

/** Elements removed together with everything inside them (docs/product.md §5: script and noscript). */
export const DROPPED_WITH_CONTENT: readonly string[] = words(
  "script noscript style template iframe frame frameset object embed applet svg math " +
    "textarea select option title xmp noembed noframes plaintext",
);

function words(list: string): readonly string[] {
  return list.split(/\s+/).filter((w) => w !== "");
}

/** Tokens a caller may keep in `rel`; `noopener noreferrer` are added for other origins. */
const KEPT_REL_TOKENS = new Set(["nofollow", "ugc", "sponsored", "external", "noopener", "noreferrer"]);

export interface SanitizeHtmlOptions extends UrlPolicy {
  /** Keep absolute links to product domains on the current site (see `rewriteProductLink`). */
  productLinks?: ProductLinkOptions;
}

const BASE_CONFIG: Config = {
  ALLOWED_TAGS: [...ALLOWED_TAGS],
  ALLOWED_ATTR: [...ALLOWED_ATTRIBUTES],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: true,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  FORBID_CONTENTS: [...DROPPED_WITH_CONTENT],
  // DOMPurify tests every attribute not marked URI-safe against ALLOWED_URI_REGEXP;
  // only href and src are URLs here.
  ADD_URI_SAFE_ATTR: ALLOWED_ATTRIBUTES.filter((a) => a !== "href" && a !== "src"),
  KEEP_CONTENT: true,
  WHOLE_DOCUMENT: false,
};

const configs = new Map<string, Config>();

// `sanitizeUrl` has already decided on every href/src; DOMPurify's own URI check
// repeats the allow-list as a second line, with this call's app schemes.
function configFor(appSchemes: readonly string[]): Config {
  const key = appSchemes.join(" ");
  let config = configs.get(key);
  if (!config) {
    const apps = appSchemes.map((s) => s.replace(/:$/, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const schemes = ["https?", "ftp", "mailto", "tel", "blob", ...apps].join("|");
    config = {
      ...BASE_CONFIG,
      ALLOWED_URI_REGEXP: new RegExp(
        `^(?:#$|(?:${schemes}):|data:image/(?:png|jpeg|gif|webp);base64,|\\.{1,2}/|/(?![/\\\\]))`,
        "i",
      ),
    };
    configs.set(key, config);
  }
  return config;
}

// Options of the call in progress: DOMPurify hooks are per instance and `sanitize` is synchronous.
let active: SanitizeHtmlOptions = {};

/**
 * Sanitises untrusted HTML for articles and app descriptions (docs/product.md §5) with
 * DOMPurify and an explicit allow-list: comments dropped; `script`, `noscript` and
 * other active elements removed with their contents; inline styles containing
 * `expression(` or a `javascript:` URL blanked; every `href`/`src` passed through
 * `sanitizeUrl` (removed when rejected); links to another origin get
 * `rel="noopener noreferrer"` and keep `target` only as `_blank`. Synchronous, and
 * the same module in the browser and on the server.
 */
export function sanitizeHtml(html: string, options: SanitizeHtmlOptions = {}): string {
  const purifier = getPurifier(installHooks);
  active = options;
  try {
    return purifier.sanitize(html, configFor(options.appSchemes ?? DEFAULT_APP_SCHEMES));
  } finally {
    active = {};
  }
}

function installHooks(purifier: DOMPurify): void {
  purifier.addHook("uponSanitizeAttribute", (_node, event) => {
    const name = event.attrName;
    if (name === "href" || name === "src") {
      const safe = sanitizeUrl(event.attrValue, active);
      if (safe === "") event.keepAttr = false;
      else event.attrValue = safe;
    } else if (name === "style" && isDangerousStyle(event.attrValue)) {
      event.attrValue = "";
    }
  });

  purifier.addHook("afterSanitizeAttributes", (node) => {
    if (node.nodeName !== "A") return;
    const link = node as Element;
    const href = link.getAttribute("href");
    if (href !== null && active.productLinks) {
      const rewritten = rewriteProductLink(href, active.productLinks);
      if (rewritten !== href) link.setAttribute("href", rewritten);
    }

    const target = link.getAttribute("target");
    if (target !== null && target.trim().toLowerCase() !== "_blank") link.removeAttribute("target");
    const opensWindow = link.hasAttribute("target");
    const external = href !== null && isOtherOrigin(link.getAttribute("href") ?? "", active.origin);

    const kept = (link.getAttribute("rel") ?? "")
      .toLowerCase()
      .split(/\s+/)
      .filter((t) => KEPT_REL_TOKENS.has(t));
    if (external || opensWindow) kept.push("noopener", "noreferrer");
    if (kept.length === 0) link.removeAttribute("rel");
    else link.setAttribute("rel", [...new Set(kept)].join(" "));
  });
}

/** CSS that runs script: IE `expression()`, `javascript:` URLs, and the old binding hooks. */
function isDangerousStyle(value: string): boolean {
  // CSS escapes (`\6a`, `\j`) and comments can split the keywords; undo both before looking.
  const unescaped = deepDecode(value)
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, "")
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_m, hex: string) => {
      const cp = Number.parseInt(hex, 16);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : "";
    })
    .replace(/\\(.)/g, "$1");
  const text = compact(unescaped);
  return ["expression(", "javascript:", "vbscript:", "-moz-binding", "behavior:"].some((k) =>
    text.includes(k),
  );
}

function isOtherOrigin(href: string, origin: string | undefined): boolean {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(href)) return false;
  const pageOrigin = origin ?? (globalThis as { location?: { origin?: string } }).location?.origin;
  try {
    const url = new URL(href);
    return pageOrigin === undefined || url.origin === "null" || url.origin !== pageOrigin;
  } catch {
    return true;
  }
}
